/** Hosts that keep a server on this machine (`--dev-user` sign-in links are issued only there). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { USER_OPTIONS, openUserControls, subcommand } from "../user-controls.js";
import { SCOPE_HELP, requireUser } from "../scope-options.js";
import { formatTable, printable, shortTime } from "../format-table.js";
import { ErrorCodes, MemoryError } from "../../errors.js";

const SUBCOMMANDS = ["show", "set"] as const;

const HELP = `usage: langgraph-memory profile <subcommand> --user U [--tenant T] [options] [--database-url URL] [--schema NAME]

The user's profile: stable facts (name, timezone, units, language, location, occupation, employer, plan, notes).

  show [--json]                                  every field, who set it and when
  set FIELD=VALUE… [FIELD:=JSON…] [--unset FIELD]… [--patch JSON] [--json]
        change fields as the user's own edit (recorded in the history): FIELD=VALUE sets a string,
        FIELD:=JSON a JSON value (number, boolean…), --unset removes a field, --patch applies a
        JSON merge patch. Invalid values change nothing and name the field.

Examples:
  npx langgraph-memory profile set --user alice --tenant acme name=Alice timezone=Europe/Paris units=metric
  npx langgraph-memory profile set --user alice --unset notes          # alice of the tenant "default"

${SCOPE_HELP}`;

export const command: CliCommand = {
  summary: "show or change one user's profile",
  async run(argv) {
    const { sub, rest } = subcommand(argv, SUBCOMMANDS, "profile");
    if (!sub) {
      console.log(HELP);
      return argv.length === 0 ? 2 : 0;
    }
    const { values, positionals } = parseCommandArgs(rest, { ...USER_OPTIONS, unset: { type: "string", multiple: true }, patch: { type: "string" } }, true);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const user = requireUser(values);
    const json = Boolean(values.json);
    const patch = sub === "set" ? buildPatch(positionals, values.unset ?? [], values.patch) : null;
    if (sub === "show" && positionals.length > 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, "profile show takes no positional arguments");
    const { controls, close } = await openUserControls(values);
    try {
      if (patch) {
        const { changed } = await controls.updateProfile(user, patch);
        const profile = await controls.profiles.get(user);
        if (json) console.log(JSON.stringify({ changed: [...changed].sort(), document: profile?.document ?? null }));
        else console.log(changed.length > 0 ? `changed ${[...changed].sort().join(", ")} for ${user.tenantId}/${user.userId}` : "nothing changed (the profile already had these values)");
        return 0;
      }
      const optedOut = await controls.isOptedOut(user);
      const profile = optedOut ? null : await controls.profiles.get(user);
      if (json) {
        console.log(
          JSON.stringify({
            tenantId: user.tenantId,
            userId: user.userId,
            optedOut,
            profile: profile && { document: profile.document, sources: profile.sources, createdAt: profile.createdAt.toISOString(), updatedAt: profile.updatedAt.toISOString() },
          }),
        );
        return 0;
      }
      if (optedOut) console.log(`${user.tenantId}/${user.userId} has opted out of memory: nothing is read`);
      else if (!profile || Object.keys(profile.document).length === 0) console.log(`no profile for ${user.tenantId}/${user.userId}`);
      else {
        const order = [...controls.profiles.priorities.filter((f) => f in profile.document), ...Object.keys(profile.document).filter((f) => !controls.profiles.priorities.includes(f))];
        const rows = order.map((field) => {
          const src = profile.sources[field];
          const by = !src ? "-" : src.kind === "extraction" ? `extraction${src.threadId ? ` (thread ${src.threadId})` : ""}` : src.kind;
          return [field, by, src ? shortTime(src.at) : "-", profile.document[field]];
        });
        console.log(formatTable(["FIELD", "SET BY", "AT", "VALUE"], rows));
      }
      return 0;
    } finally {
      await close();
    }
  },
};

/** FIELD=VALUE (string), FIELD:=JSON, --unset FIELD, --patch JSON → one merge patch. */
function buildPatch(assignments: string[], unset: string[], patchJson: string | undefined): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (patchJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(patchJson);
    } catch {
      throw new MemoryError(ErrorCodes.INVALID_INPUT, "--patch: not valid JSON");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--patch: must be a JSON object, e.g. '{\"units\":\"metric\"}'");
    Object.assign(patch, parsed);
  }
  for (const a of assignments) {
    const m = /^([^=:]+)(:?=)([\s\S]*)$/.exec(a);
    if (!m) throw new MemoryError(ErrorCodes.INVALID_INPUT, `"${printable(a)}": write FIELD=VALUE (a string) or FIELD:=JSON`);
    const [, field, op, raw] = m;
    if (op === ":=") {
      try {
        patch[field] = JSON.parse(raw);
      } catch {
        throw new MemoryError(ErrorCodes.INVALID_INPUT, `${field}:=…: not valid JSON (use ${field}=… for a string)`);
      }
    } else patch[field] = raw;
  }
  for (const field of unset) patch[field] = null;
  if (Object.keys(patch).length === 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, "profile set: give FIELD=VALUE, FIELD:=JSON, --unset FIELD or --patch JSON");
  return patch;
}

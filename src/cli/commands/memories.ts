import { writeFileSync } from "node:fs";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { CLI_ACTOR, USER_OPTIONS, openUserControls, subcommand } from "../user-controls.js";
import { SCOPE_HELP, requireUser, scopeArgs } from "../scope-options.js";
import { cliCommand } from "../../core/cli-name.js";
import { countOf } from "../../core/plural.js";
import { formatFields, formatTable, printable, shortTime } from "../format-table.js";
import { confirmByTyping } from "../confirm.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { MEMORY_KINDS, type MemoryKind } from "../../state/types.js";
import type { InspectedMemory, MemoryControls } from "../../controls/memory-controls.js";
import type { DeletedCounts } from "../../controls/user-data.js";
import type { UserScope } from "../../core/scope.js";
import { filterMemories, searchResults, versionsOf } from "../../server/memory-listing.js";

const SUBCOMMANDS = ["list", "show", "edit", "delete", "export", "forget-all", "opt-out", "opt-in"] as const;

const HELP = `usage: langgraph-memory memories <subcommand> --user U [--tenant T] [options] [--database-url URL] [--schema NAME]

What is remembered about one user, and what they (or you, for them) can do about it.

  list [--kind K[,K]] [--all] [--search TEXT] [--json]
        memories, newest first (active ones; --all adds replaced, expired and set-aside ones);
        --search ranks by the same retrieval the agent uses, then adds every text containing TEXT
  show ID [--json]              one memory with its source, dates and earlier/later versions
  edit ID [--text TEXT] [--kind K] [--json]
                                change the text (re-embedded) and/or kind; it becomes user-stated
  delete ID [--only-this] [--json]
                                delete it, and the earlier versions it replaced unless --only-this
  export [--output FILE]        everything about the user as JSON (stdout unless --output): memories,
                                profile, rules, settings and their conversation threads
  forget-all [--yes] [--json]   delete everything of the user: memories, profile, rules, jobs and
                                conversation threads. Asks you to type the user id on a terminal;
                                without a terminal it refuses unless --yes.
  opt-out [--purge [--yes]] [--json]
                                stop remembering: nothing is read or written for the user from now
                                on and their queued jobs are dropped; what is stored is kept (shown
                                again after opt-in) unless --purge, which deletes it as forget-all
                                does (and asks the same way)
  opt-in [--json]               remember again (nothing deleted comes back)

${SCOPE_HELP}

Kinds: ${MEMORY_KINDS.join(", ")}. --embeddings SPEC must match what the store was written with
(default EMBEDDINGS or "local"). Human-readable tables by default; --json for scripts.`;

export const command: CliCommand = {
  summary: "list, show, edit, delete, export or forget all memories of one user; opt them out or in",
  async run(argv) {
    const { sub, rest } = subcommand(argv, SUBCOMMANDS, "memories");
    if (!sub) {
      console.log(HELP);
      return argv.length === 0 ? 2 : 0;
    }
    const { values, positionals } = parseCommandArgs(
      rest,
      { ...USER_OPTIONS, kind: { type: "string" }, all: { type: "boolean" }, search: { type: "string" }, text: { type: "string" }, "only-this": { type: "boolean" }, output: { type: "string" }, yes: { type: "boolean" }, purge: { type: "boolean" } },
      true,
    );
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const user = requireUser(values);
    const needsId = sub === "show" || sub === "edit" || sub === "delete";
    if (needsId && positionals.length !== 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, `memories ${sub} takes exactly one memory ID`);
    if (!needsId && positionals.length > 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `memories ${sub} takes no positional arguments (got ${positionals.length})`);
    const kinds = values.kind === undefined ? undefined : parseKinds(values.kind);
    const json = Boolean(values.json);
    const { controls, close } = await openUserControls(values);
    try {
      switch (sub) {
        case "list": {
          const inspection = await controls.inspect(user);
          const filtered = filterMemories(inspection.memories, { kinds, statuses: values.all ? undefined : ["active"] });
          const q = values.search?.trim();
          const listed = q
            ? searchResults(filtered, inspection.optedOut ? [] : await controls.store.search(user, q, { limit: 50, kinds, minSimilarity: 0.05 }), q)
            : filtered.map((m) => ({ ...m, score: null }));
          if (json) {
            console.log(JSON.stringify({ tenantId: user.tenantId, userId: user.userId, optedOut: inspection.optedOut, total: listed.length, memories: listed }));
            return 0;
          }
          if (inspection.optedOut) {
            console.log(`${user.tenantId}/${user.userId} has opted out of memory: nothing is read (opt back in with \`${cliCommand(`memories opt-in ${scopeArgs(user)}`)}\` to see what is stored, or forget-all).`);
            return 0;
          }
          if (listed.length === 0) {
            console.log(q ? `no memory of ${user.tenantId}/${user.userId} matches "${printable(q)}"` : `no ${values.all ? "" : "active "}memories for ${user.tenantId}/${user.userId}`);
            return 0;
          }
          const headers = ["ID", "KIND", ...(values.all ? ["STATUS"] : []), "ORIGIN", "CONF", ...(q ? ["SCORE"] : []), "CREATED", "THREAD", "TEXT"];
          const rows = listed.map((m) => [
            m.id,
            m.kind,
            ...(values.all ? [m.status] : []),
            m.origin,
            m.confidence.toFixed(2),
            ...(q ? [m.score === null ? "text" : m.score.toFixed(3)] : []),
            shortTime(m.createdAt).slice(0, 10),
            m.source.threadId ?? "-",
            m.text,
          ]);
          console.log(formatTable(headers, rows));
          const inactive = inspection.memories.length - inspection.memories.filter((m) => m.status === "active").length;
          console.log(`\n${countOf(listed.length, "memory", "memories")}${!values.all && inactive > 0 ? ` (${inactive} replaced, expired or set aside not shown; --all shows them)` : ""}`);
          return 0;
        }
        case "show": {
          const id = positionals[0];
          const memory = await controls.getMemory(user, id);
          const { memories } = await controls.inspect(user);
          const { previous, newer } = versionsOf(memories, id);
          if (json) {
            console.log(JSON.stringify({ memory, previousVersions: previous, newerVersions: newer }));
            return 0;
          }
          console.log(describeMemory(memory));
          if (previous.length > 0) {
            console.log(`\nearlier versions (${previous.length}):`);
            console.log(formatTable(["ID", "CREATED", "TEXT"], previous.map((p) => [p.id, shortTime(p.createdAt), p.text])));
          }
          if (newer.length > 0) {
            console.log(`\nreplaced by:`);
            console.log(formatTable(["ID", "CREATED", "STATUS", "TEXT"], newer.map((p) => [p.id, shortTime(p.createdAt), p.status, p.text])));
          }
          return 0;
        }
        case "edit": {
          if (values.text === undefined && kinds === undefined) throw new MemoryError(ErrorCodes.INVALID_INPUT, "give --text TEXT and/or --kind K");
          if (kinds && kinds.length !== 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--kind: give one kind when editing");
          const memory = await controls.editMemory(user, positionals[0], { text: values.text, kind: kinds?.[0] });
          console.log(json ? JSON.stringify({ memory }) : `updated ${memory.id} (${memory.kind}, now user-stated): ${printable(memory.text)}`);
          return 0;
        }
        case "delete": {
          const { deleted } = await controls.deleteMemory(user, positionals[0], { includePrevious: !values["only-this"], actor: CLI_ACTOR });
          console.log(json ? JSON.stringify({ deleted }) : `deleted ${deleted === 1 ? "1 memory" : `${deleted} memories (the memory and ${countOf(deleted - 1, "earlier version")})`}`);
          return 0;
        }
        case "export": {
          const data = await controls.export(user);
          const text = `${JSON.stringify(data, null, 2)}\n`;
          if (values.output) {
            writeFileSync(values.output, text, { mode: 0o600 });
            console.error(`exported ${countOf(data.memories.length, "memory", "memories")}, ${data.profile ? "the profile" : "no profile"}, ${countOf(data.rules.length, "rule")} and ${countOf(data.threads?.length ?? 0, "thread")} of ${user.tenantId}/${user.userId} to ${values.output}`);
          } else process.stdout.write(text);
          return 0;
        }
        case "forget-all": {
          if (!values.yes && !(await confirmDeleteEverything(controls, user))) return 1;
          // The same two steps as the API: a one-time token, spent at once.
          const { token } = await controls.requestDeleteAll(user);
          const deleted = await controls.deleteAll(user, token, { actor: CLI_ACTOR });
          if (json) console.log(JSON.stringify({ deleted }));
          else console.log(`deleted everything of ${user.tenantId}/${user.userId}: ${describeDeleted(deleted)}`);
          return 0;
        }
        case "opt-out": {
          if (values.yes && !values.purge) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--yes confirms --purge; opting out alone deletes nothing stored and needs no confirmation");
          if (values.purge && !values.yes && !(await confirmDeleteEverything(controls, user, "opt out and delete"))) return 1;
          const { changed, purged } = await controls.optOut(user, { purge: Boolean(values.purge), actor: CLI_ACTOR });
          if (json) {
            console.log(JSON.stringify({ tenantId: user.tenantId, userId: user.userId, optedOut: true, changed, purged }));
            return 0;
          }
          const who = `${user.tenantId}/${user.userId}`;
          console.log(changed ? `${who} opted out of memory: nothing is read or written for them from now on, and their queued jobs were dropped` : `${who} was already opted out of memory`);
          console.log(purged ? `deleted everything stored: ${describeDeleted(purged)}` : `what is stored is kept; delete it with \`${cliCommand(`memories forget-all ${scopeArgs(user)}`)}\``);
          console.log(`opt back in with \`${cliCommand(`memories opt-in ${scopeArgs(user)}`)}\``);
          return 0;
        }
        case "opt-in": {
          const { changed } = await controls.optIn(user);
          if (json) console.log(JSON.stringify({ tenantId: user.tenantId, userId: user.userId, optedOut: false, changed }));
          else console.log(changed ? `${user.tenantId}/${user.userId} opted back in: memory is read and written again (nothing deleted comes back)` : `${user.tenantId}/${user.userId} was not opted out; nothing changed`);
          return 0;
        }
      }
      return 2;
    } finally {
      await close();
    }
  },
};

/**
 * Ask on the terminal before deleting everything of the user (the user id must be typed); false,
 * with the reason on stderr, when it was declined or nobody could answer.
 */
async function confirmDeleteEverything(controls: MemoryControls, user: UserScope, action = "delete"): Promise<boolean> {
  const inspection = await controls.inspect(user);
  const what = inspection.optedOut
    ? "everything stored (the user is opted out, so it cannot be counted)"
    : `${countOf(inspection.memories.length, "memory", "memories")}, ${inspection.profile ? "the profile" : "no profile"}, ${countOf(inspection.rules.length, "rule")}, queued jobs and conversation threads`;
  const verb = action.charAt(0).toUpperCase() + action.slice(1);
  const answer = await confirmByTyping(`${verb} ${what} of ${user.tenantId}/${user.userId}? This cannot be undone.`, user.userId);
  if (answer === "no-tty") console.error("refusing to delete everything without confirmation: stdin is not a terminal; pass --yes to confirm");
  else if (answer === "declined") console.error("cancelled; nothing was deleted");
  return answer === "confirmed";
}

/** "memories 4, profile 1, …": the counts of a deletion, as `DeletedCounts` names them (scripts read --json). */
function describeDeleted(deleted: DeletedCounts): string {
  return Object.entries(deleted).map(([k, n]) => `${k} ${n}`).join(", ");
}

function parseKinds(value: string): MemoryKind[] {
  const kinds = value.split(",").map((k) => k.trim()).filter(Boolean);
  for (const k of kinds) if (!(MEMORY_KINDS as readonly string[]).includes(k)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--kind: "${printable(k)}" is not a kind; one of ${MEMORY_KINDS.join(", ")}`);
  if (kinds.length === 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--kind: give one of ${MEMORY_KINDS.join(", ")}`);
  return kinds as MemoryKind[];
}

function describeMemory(m: InspectedMemory): string {
  const source = [m.source.threadId && `thread ${m.source.threadId}`, m.source.messageId && `message ${m.source.messageId}`, m.source.runId && `run ${m.source.runId}`].filter(Boolean).join(", ");
  return formatFields([
    ["id", m.id],
    ["kind", m.kind],
    ["status", m.status],
    ["text", m.text],
    ["origin", `${m.origin} (confidence ${m.confidence.toFixed(2)})`],
    ["source", source || "-"],
    ["created", shortTime(m.createdAt)],
    ["updated", shortTime(m.updatedAt)],
    ["last used", m.lastUsedAt ? shortTime(m.lastUsedAt) : "never"],
    ["expires", m.expiresAt ? shortTime(m.expiresAt) : "never"],
    ["set aside", m.deactivatedAt ? shortTime(m.deactivatedAt) : "-"],
    ["replaces", m.supersedes.length > 0 ? m.supersedes.join(", ") : "-"],
    ["replaced by", m.supersededBy ?? "-"],
  ]);
}

import { writeFileSync } from "node:fs";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { CLI_ACTOR, USER_OPTIONS, openUserControls, requireUser, subcommand } from "../user-controls.js";
import { formatFields, formatTable, printable, shortTime } from "../format-table.js";
import { confirmByTyping } from "../confirm.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { MEMORY_KINDS, type MemoryKind } from "../../state/types.js";
import type { InspectedMemory } from "../../controls/memory-controls.js";
import { filterMemories, searchResults, versionsOf } from "../../server/memory-listing.js";

const SUBCOMMANDS = ["list", "show", "edit", "delete", "export", "forget-all"] as const;

const HELP = `usage: langgraph-memory memories <subcommand> --tenant T --user U [options] [--database-url URL] [--schema NAME]

What is remembered about one user, and what they (or you, for them) can do about it.

  list [--kind K[,K]] [--all] [--search TEXT] [--json]
        memories, newest first (active ones; --all adds replaced, expired and set-aside ones);
        --search ranks by the same retrieval the agent uses, then adds every text containing TEXT
  show ID [--json]              one memory with its source, dates and earlier/later versions
  edit ID [--text TEXT] [--kind K] [--json]
                                change the text (re-embedded) and/or kind; it becomes user-stated
  delete ID [--only-this] [--json]
                                delete it, and the earlier versions it replaced unless --only-this
  export [--output FILE]        everything about the user as JSON (stdout unless --output)
  forget-all [--yes] [--json]   delete everything of the user: memories, profile, rules, jobs and
                                conversation threads. Asks you to type the user id on a terminal;
                                without a terminal it refuses unless --yes.

Kinds: ${MEMORY_KINDS.join(", ")}. --embeddings SPEC must match what the store was written with
(default EMBEDDINGS or "local"). Human-readable tables by default; --json for scripts.`;

export const command: CliCommand = {
  summary: "list, show, edit, delete, export or forget all memories of one user",
  async run(argv) {
    const { sub, rest } = subcommand(argv, SUBCOMMANDS, "memories");
    if (!sub) {
      console.log(HELP);
      return argv.length === 0 ? 2 : 0;
    }
    const { values, positionals } = parseCommandArgs(
      rest,
      { ...USER_OPTIONS, kind: { type: "string" }, all: { type: "boolean" }, search: { type: "string" }, text: { type: "string" }, "only-this": { type: "boolean" }, output: { type: "string" }, yes: { type: "boolean" } },
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
            console.log(`${user.tenantId}/${user.userId} has opted out of memory: nothing is read (opt back in to see what is stored, or forget-all).`);
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
          console.log(`\n${listed.length} ${listed.length === 1 ? "memory" : "memories"}${!values.all && inactive > 0 ? ` (${inactive} replaced, expired or set aside not shown; --all shows them)` : ""}`);
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
          console.log(json ? JSON.stringify({ deleted }) : `deleted ${deleted} ${deleted === 1 ? "memory" : `memories (the memory and ${deleted - 1} earlier ${deleted === 2 ? "version" : "versions"})`}`);
          return 0;
        }
        case "export": {
          const data = await controls.export(user);
          const text = `${JSON.stringify(data, null, 2)}\n`;
          if (values.output) {
            writeFileSync(values.output, text, { mode: 0o600 });
            console.error(`exported ${data.memories.length} memories, ${data.profile ? "the profile" : "no profile"} and ${data.rules.length} rules of ${user.tenantId}/${user.userId} to ${values.output}`);
          } else process.stdout.write(text);
          return 0;
        }
        case "forget-all": {
          if (!values.yes) {
            const inspection = await controls.inspect(user);
            const what = inspection.optedOut
              ? "everything stored (the user is opted out, so it cannot be counted)"
              : `${inspection.memories.length} memories, ${inspection.profile ? "the profile" : "no profile"}, ${inspection.rules.length} rules, queued jobs and conversation threads`;
            const answer = await confirmByTyping(`Delete ${what} of ${user.tenantId}/${user.userId}? This cannot be undone.`, user.userId);
            if (answer === "no-tty") {
              console.error("refusing to delete everything without confirmation: stdin is not a terminal; pass --yes to confirm");
              return 1;
            }
            if (answer === "declined") {
              console.error("cancelled; nothing was deleted");
              return 1;
            }
          }
          // The same two steps as the API: a one-time token, spent at once.
          const { token } = await controls.requestDeleteAll(user);
          const deleted = await controls.deleteAll(user, token, { actor: CLI_ACTOR });
          if (json) console.log(JSON.stringify({ deleted }));
          else {
            console.log(`deleted everything of ${user.tenantId}/${user.userId}: ${Object.entries(deleted).map(([k, n]) => `${k} ${n}`).join(", ")}`);
          }
          return 0;
        }
      }
      return 2;
    } finally {
      await close();
    }
  },
};

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

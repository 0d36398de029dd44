import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { CLI_ACTOR, USER_OPTIONS, openUserControls, subcommand } from "../user-controls.js";
import { SCOPE_HELP, requireUser } from "../scope-options.js";
import { formatTable, printable, shortTime } from "../format-table.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { exportRule } from "../../procedural/rule-queries.js";
import { REVIEW_STATES, type ReviewState } from "../../procedural/rule-types.js";

const SUBCOMMANDS = ["list", "approve", "revoke"] as const;

const HELP = `usage: langgraph-memory rules <subcommand> --user U [--tenant T] [options] [--database-url URL] [--schema NAME]

The user's own procedural rules ("answer with diffs, not full files"): extraction proposes them,
only approved ones reach the prompt (from the next turn on).

  list [--state S[,S]] [--json]   rules in every state, or only ${REVIEW_STATES.join(" / ")}
  approve ID [--json]             approve a proposed (or revoked) rule
  revoke ID [--json]              revoke a rule: it stops reaching the prompt

${SCOPE_HELP}`;

export const command: CliCommand = {
  summary: "list, approve or revoke one user's procedural rules",
  async run(argv) {
    const { sub, rest } = subcommand(argv, SUBCOMMANDS, "rules");
    if (!sub) {
      console.log(HELP);
      return argv.length === 0 ? 2 : 0;
    }
    const { values, positionals } = parseCommandArgs(rest, { ...USER_OPTIONS, state: { type: "string" } }, true);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const user = requireUser(values);
    const json = Boolean(values.json);
    if (sub === "list" && positionals.length > 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, "rules list takes no positional arguments");
    if (sub !== "list" && positionals.length !== 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, `rules ${sub} takes exactly one rule ID`);
    const states = values.state === undefined ? undefined : parseStates(values.state);
    const { controls, close } = await openUserControls(values);
    try {
      if (sub === "list") {
        const rules = (await controls.rules.list(user, { states })).map(exportRule);
        if (json) console.log(JSON.stringify({ tenantId: user.tenantId, userId: user.userId, rules }));
        else if (rules.length === 0) console.log(`no rules for ${user.tenantId}/${user.userId}${states ? ` in state ${states.join(", ")}` : ""}`);
        else {
          console.log(
            formatTable(
              ["ID", "STATE", "SOURCE", "PRIORITY", "ACTIVE", "CREATED", "TEXT"],
              rules.map((r) => [r.id, r.state, r.source, r.priority, r.active ? "yes" : "paused", shortTime(r.createdAt).slice(0, 10), r.taskType ? `[${r.taskType}] ${r.text}` : r.text]),
            ),
          );
        }
        return 0;
      }
      const id = positionals[0];
      const rule = sub === "approve" ? await controls.approveRule(user, id, { actor: CLI_ACTOR }) : await controls.revokeRule(user, id, { actor: CLI_ACTOR });
      console.log(json ? JSON.stringify({ rule }) : `${sub === "approve" ? "approved" : "revoked"} ${rule.id}: ${printable(rule.text)}`);
      return 0;
    } finally {
      await close();
    }
  },
};

function parseStates(value: string): ReviewState[] {
  const states = value.split(",").map((s) => s.trim()).filter(Boolean);
  for (const s of states) if (!(REVIEW_STATES as readonly string[]).includes(s)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--state: "${printable(s)}" is not a state; one of ${REVIEW_STATES.join(", ")}`);
  if (states.length === 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--state: give one of ${REVIEW_STATES.join(", ")}`);
  return states as ReviewState[];
}

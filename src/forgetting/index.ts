/** Forgetting a fact everywhere it is quoted: see forget-everywhere.ts and docs/controls.md. */
export { forgetEverywhere, type ForgetEverywhereOptions, type ForgetReport } from "./forget-everywhere.js";
export { withdrawalForMemories } from "./memory-withdrawal.js";
export { MEMORY_TEXT_CHANNELS, withdrawFromChannel, withdrawFromDocument, withdrawFromPayload, withdrawFromSummary } from "./withdraw-values.js";
export { withdrawalOf, dropWithdrawn, statesWithdrawn, type Withdrawal, type WithdrawnStatement } from "../sessions/withdrawal.js";

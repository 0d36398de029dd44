export { NO_OWNER, ownerOfConfigurable, sameOwner, threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";
export { requireThreadOwner } from "./require-thread-owner.js";
export { forgetOwners } from "./verified-owners.js";

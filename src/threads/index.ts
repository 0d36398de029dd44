export { ownerOfConfigurable, threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";
export { requireThreadOwner } from "./verified-owners.js";

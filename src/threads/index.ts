export { ownerOfConfigurable, threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";
export { requireThreadOwner } from "./require-thread-owner.js";

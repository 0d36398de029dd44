export { ownerOfConfigurable, requireThreadOwner, threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";

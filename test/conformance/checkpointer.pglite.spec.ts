import { checkpointerConformance } from "./checkpointer-suite.js";

checkpointerConformance("pglite");

/** Who or what caused a change (recorded in the profile's history, on rules and in the deletion audit). */
export interface ChangeSource {
  kind: "user_edit" | "extraction" | "tool" | "import" | "api";
  threadId?: string | null;
  messageId?: string | null;
  runId?: string | null;
}

/**
 * An offline graph for the LangGraph API tests: each run appends an answer naming the user's last
 * message and counts turns — deterministic, so a fork's branch is told apart from the original.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";

export const EchoState = Annotation.Root({
  ...MessagesAnnotation.spec,
  turns: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

function text(message: BaseMessage | undefined): string {
  return typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? null);
}

export const echoBuilder = new StateGraph(EchoState)
  .addNode("respond", (state: typeof EchoState.State) => ({ messages: [new AIMessage(`echo: ${text(state.messages.at(-1))}`)], turns: 1 }))
  .addEdge(START, "respond")
  .addEdge("respond", END);

export const graph = echoBuilder.compile({ name: "echo" });

/** A graph with the echo graph as its subgraph node `inner` (its checkpoints go to their own namespace). */
export const parentGraph = new StateGraph(EchoState)
  .addNode("inner", echoBuilder.compile())
  .addEdge(START, "inner")
  .addEdge("inner", END)
  .compile({ name: "parent" });

/**
 * A job that is already running when the user forgets a fact must not write it back, on both
 * engines. The job's extraction (a model call) has read the fact from its payload when the user
 * deletes the memory; the deletion rewrites the job's payload and takes its lease; the job's write
 * pass checks the lease under the user's write lock, writes nothing, and the job runs again with
 * the forgotten sentence gone from its payload.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { BaseMessage } from "@langchain/core/messages";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { ChatResult } from "@langchain/core/outputs";
import type { Database } from "../../src/db/database.js";
import { EXTRACTION_QUEUE, createExtractionJobHandler } from "../../src/extraction/node/index.js";
import { writeTargetsOf } from "../../src/graph/write-targets.js";
import { JobWorker, type JobEvent } from "../../src/jobs/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { promptMessages } from "../helpers/extraction-models.js";
import { RecordingChatModel } from "../helpers/fake-chat-model.js";

/** An extraction model that keeps "User is vegetarian." for a message saying so — once let through. */
class GatedExtractor extends RecordingChatModel {
  entered!: () => void;
  readonly started = new Promise<void>((resolve) => (this.entered = resolve));
  release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  constructor() {
    super({
      defaultResponse: (call) => ({
        structured: {
          memories: promptMessages(call)
            .filter((m) => /vegetarian/i.test(m.text))
            .map((m) => ({ kind: "fact", text: "User is vegetarian.", confidence: 0.95, subject: "diet", action: "add", source_id: m.id })),
        },
      }),
    });
  }
  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    this.entered();
    await this.gate;
    return super._generate(messages, options, runManager);
  }
}

describe.each(testEngines())("forgetting while a job runs on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db, model: null });
  });
  afterAll(async () => {
    await memory.close();
    await db.close();
  });

  it("the running job's write is refused (lease taken), it runs again without the sentence, and the fact stays forgotten", async () => {
    const user = { tenantId: "acme", userId: "running" };
    const fact = await memory.store.add(user, { kind: "fact", text: "User is vegetarian.", metadata: { subject: "diet" } });
    await memory.jobs.enqueue({
      queue: EXTRACTION_QUEUE,
      scope: user,
      groupKey: "t1",
      idempotencyKey: "t1:m1",
      payload: { v: 1, threadId: "t1", messages: [{ id: "m1", role: "human", text: "I'm vegetarian, remember it. My dog is called Rex." }] },
    });
    const model = new GatedExtractor();
    const events: JobEvent[] = [];
    const worker = new JobWorker(db, {
      handlers: { [EXTRACTION_QUEUE]: createExtractionJobHandler({ store: memory.store, model, targets: writeTargetsOf(memory) }) },
      pollIntervalMs: 20,
      listen: false,
      onEvent: (e) => events.push(e),
    });
    worker.start();
    await model.started; // the job runs: its extraction has read the fact
    await memory.controls.deleteMemory(user, fact.id);
    model.release();
    await worker.drain();
    await worker.stop();

    const texts = (await memory.store.export(user)).map((m) => m.text);
    const [job] = await memory.jobs.list(user);
    expect({ texts, state: job.state, lostLease: events.some((e) => e.type === "lease_lost") }).toEqual({ texts: [], state: "done", lostLease: true });
    // The second run saw the payload without the sentence (the rest of the message kept).
    const lastPrompt = promptMessages(model.calls.at(-1)!).map((m) => m.text);
    expect(lastPrompt).toEqual(["My dog is called Rex."]);
  });
});

import * as messageClasses from "@langchain/core/messages";
import { BaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer, type SerializerProtocol } from "@langchain/langgraph-checkpoint";

/**
 * A synchronous decoder for the items a chat thread is made of: one serialized message each.
 *
 * LangGraph's JsonPlusSerializer revives every value through two asynchronous recursive walks
 * (its own reviver, then `@langchain/core/load` on a re-stringified copy), which costs ~60 µs per
 * message: 240 of the ~300 ms a cold read of a 4,000-message thread took. For the one shape that
 * dominates — `{lc: 1, type: "constructor", id: ["langchain_core", "messages", Class], kwargs}`
 * whose kwargs hold plain JSON only — the result of that walk is exactly
 * `new Class(kwargs with keys camel-cased and the class's aliases applied)`, which this builds
 * directly. Anything else (nested LangChain objects, `lc: 2` records, escaped objects, other
 * classes, a serializer other than the default one) goes to the serializer unchanged.
 *
 * @example
 * const decoder = MessageDecoder.for(checkpointer.serde);
 * const value = decoder?.decode("json", bytes) ?? (await serde.loadsTyped("json", bytes));
 */
export class MessageDecoder {
  private static readonly shared = new MessageDecoder();
  private readonly utf8 = new TextDecoder();
  private readonly aliases = new Map<MessageClass, Record<string, string>>();

  /** The decoder when `serde` is LangGraph's default serializer itself (not a subclass); else undefined. */
  static for(serde: SerializerProtocol): MessageDecoder | undefined {
    return serde instanceof JsonPlusSerializer && Object.getPrototypeOf(serde) === JsonPlusSerializer.prototype ? MessageDecoder.shared : undefined;
  }

  /**
   * The decoded value, or undefined when the bytes are not a plain message (use the serializer).
   * `data` is the serialized bytes or, for a JSON item, their text (as the read sends it).
   */
  decode(type: string, data: Uint8Array | string): BaseMessage | undefined {
    if (type !== "json" || !(typeof data === "string" ? data.length > 8 && data.startsWith(MESSAGE_START) : startsLikeMessage(data))) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof data === "string" ? data : this.utf8.decode(data));
    } catch {
      return undefined; // the serializer reports it
    }
    return this.build(parsed);
  }

  private build(record: unknown): BaseMessage | undefined {
    if (record === null || typeof record !== "object" || Array.isArray(record)) return undefined;
    const r = record as Record<string, unknown>;
    if (r.lc !== 1 || r.type !== "constructor" || !Array.isArray(r.id) || r.id.length !== 3) return undefined;
    if (r.id[0] !== "langchain_core" || r.id[1] !== "messages" || typeof r.id[2] !== "string") return undefined;
    const kwargs = r.kwargs;
    if (kwargs === null || typeof kwargs !== "object" || Array.isArray(kwargs)) return undefined;
    // Deeper than load()'s limit (50) or holding anything a reviver would turn into an object.
    if (!isPlainJson(kwargs, 2)) return undefined;
    const name = r.id[2];
    const builder = Object.hasOwn(messageClasses, name) ? (messageClasses as Record<string, unknown>)[name] : undefined;
    // BaseMessage overrides instanceof with a duck-typed check: test the prototype chain itself.
    if (typeof builder !== "function" || !Object.prototype.isPrototypeOf.call(BaseMessage.prototype, builder.prototype)) return undefined;
    const cls = builder as MessageClass;
    const aliases = this.aliasesOf(cls);
    const fields: Record<string, unknown> = {};
    for (const key in kwargs) {
      if (Object.hasOwn(kwargs, key)) fields[aliases[key] || camelCase(key)] = (kwargs as Record<string, unknown>)[key];
    }
    return new cls(fields);
  }

  /** The class's `lc_aliases` along its prototype chain, inverted (JSON key → field), as load() applies them. */
  private aliasesOf(builder: MessageClass): Record<string, string> {
    let out = this.aliases.get(builder);
    if (!out) {
      const aliases: Record<string, string> = {};
      // The class, its parents, … up to Function.prototype (which has no `prototype` of its own).
      for (let c: { prototype?: object } | null = builder as { prototype?: object }; c?.prototype; c = Object.getPrototypeOf(c)) {
        Object.assign(aliases, Reflect.get(c.prototype, "lc_aliases"));
      }
      out = {};
      for (const [field, key] of Object.entries(aliases)) out[key] = field;
      this.aliases.set(builder, out);
    }
    return out;
  }
}

/** A message class of `@langchain/core/messages` (constructed from its fields, as load() does). */
type MessageClass = new (fields: unknown) => BaseMessage;

const OPEN_BRACE = 0x7b;
const MESSAGE_START = '{"lc"';

/** A serialized message starts with `{"lc":1`; a cheap test before parsing anything else. */
function startsLikeMessage(bytes: Uint8Array): boolean {
  return bytes.length > 8 && bytes[0] === OPEN_BRACE && bytes[1] === 0x22 && bytes[2] === 0x6c && bytes[3] === 0x63 && bytes[4] === 0x22;
}

const MAX_DEPTH = 45;

/** JSON with no object a reviver would treat specially: no `lc` key (LangChain or lc:2 records), no escaped object, no `__proto__` key (which a reviver's copy would turn into a prototype). */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== "object") return true;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (!isPlainJson(v, depth + 1)) return false;
    return true;
  }
  for (const key in value) {
    if (key === "lc" || key === "__lc_escaped__" || key === "__proto__") return false;
    if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** `@langchain/core/load`'s key mapping: snake_case JSON keys become camelCase fields. */
function camelCase(key: string): string {
  const trimmed = key.trim();
  if (!/[-_\s]/.test(trimmed)) return trimmed;
  return trimmed.replace(/[-_\s]+/g, "_").toLowerCase().replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

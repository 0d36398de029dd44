import type { FileHandle } from "node:fs/promises";

// Lines follow the rules of tail(1) and `grep -c ''`. Each "\n" ends a line. Text after the last
// "\n" is one more line, an unterminated one. An empty file has no lines.

const NEWLINE = 0x0a;
const BACKWARD_CHUNK = 1 << 20;
const FORWARD_CHUNK = 4 << 20;

/** Where the last `n` lines of a file start, and how many lines there are from there (at most `n`). */
export interface TailStart {
  start: number;
  lines: number;
}

/** Finds the start of the last `n` lines of the first `size` bytes, reading backwards like tail -n. */
export async function locateLastLines(fh: FileHandle, size: number, n: number): Promise<TailStart> {
  if (size === 0 || n <= 0) return { start: size, lines: 0 };
  const buf = Buffer.allocUnsafe(Math.min(BACKWARD_CHUNK, size));
  await readFully(fh, buf, 1, size - 1);
  // A final "\n" ends the last line. It does not separate two lines.
  let pos = buf[0] === NEWLINE ? size - 1 : size;
  let separators = 0;
  while (pos > 0) {
    const len = Math.min(buf.length, pos);
    const from = pos - len;
    await readFully(fh, buf, len, from);
    const view = buf.subarray(0, len);
    let i = len;
    while (i > 0) {
      const p = view.lastIndexOf(NEWLINE, i - 1);
      if (p === -1) break;
      separators += 1;
      if (separators === n) return { start: from + p + 1, lines: n };
      i = p;
    }
    pos = from;
  }
  return { start: 0, lines: separators + 1 };
}

/** Complete lines read from a file region: `bytes` ends with "\n", except an unterminated last line. */
export interface LineChunk {
  bytes: Buffer;
  /** File offset of bytes[0]. */
  offset: number;
  /** True when this is the region's last chunk and its last line has no "\n". */
  unterminated: boolean;
}

/** Reads [start, end) in chunks of whole lines (a few MB each). */
export async function* readLineChunks(fh: FileHandle, start: number, end: number): AsyncGenerator<LineChunk> {
  let pos = start;
  let carry: Buffer = Buffer.alloc(0);
  while (pos < end) {
    const want = Math.min(FORWARD_CHUNK, end - pos);
    const chunk = Buffer.allocUnsafe(want);
    const { bytesRead } = await fh.read(chunk, 0, want, pos);
    if (bytesRead === 0) break; // the file was truncated under us: stop at what exists
    pos += bytesRead;
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    const lastNewline = data.lastIndexOf(NEWLINE);
    if (lastNewline === -1) {
      carry = data;
      continue;
    }
    carry = Buffer.from(data.subarray(lastNewline + 1));
    yield { bytes: data.subarray(0, lastNewline + 1), offset: pos - carry.length - (lastNewline + 1), unterminated: false };
  }
  if (carry.length > 0) yield { bytes: carry, offset: pos - carry.length, unterminated: true };
}

/** Lines read from a file region, in order. `first` is the 1-based number of lines[0] within the region. */
export interface LineBatch {
  first: number;
  lines: string[];
  /** True on the last batch when the region's last line has no "\n". */
  unterminated: boolean;
  /** Byte offset just after the batch's last line. */
  end: number;
}

/** Reads the lines of [start, end) in batches. One string is decoded per chunk, not per line. */
export async function* readLineBatches(fh: FileHandle, start: number, end: number): AsyncGenerator<LineBatch> {
  let next = 1;
  for await (const chunk of readLineChunks(fh, start, end)) {
    const length = chunk.unterminated ? chunk.bytes.length : chunk.bytes.length - 1;
    const lines = chunk.bytes.toString("utf8", 0, length).split("\n");
    yield { first: next, lines, unterminated: chunk.unterminated, end: chunk.offset + chunk.bytes.length };
    next += lines.length;
  }
}

/** 1-based line numbers of the lines that start at these ascending offsets, in one pass. */
export async function lineNumbersAt(fh: FileHandle, offsets: readonly number[]): Promise<number[]> {
  const numbers: number[] = [];
  let line = 1;
  let pos = 0;
  const buf = Buffer.allocUnsafe(FORWARD_CHUNK);
  for (const target of offsets) {
    while (pos < target) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, target - pos), pos);
      if (bytesRead === 0) break;
      const view = buf.subarray(0, bytesRead);
      for (let i = view.indexOf(NEWLINE); i !== -1; i = view.indexOf(NEWLINE, i + 1)) line += 1;
      pos += bytesRead;
    }
    numbers.push(line);
  }
  return numbers;
}

/** The last byte of the first `size` bytes, or undefined for an empty file. */
export async function lastByte(fh: FileHandle, size: number): Promise<number | undefined> {
  if (size === 0) return undefined;
  const buf = Buffer.alloc(1);
  await readFully(fh, buf, 1, size - 1);
  return buf[0];
}

async function readFully(fh: FileHandle, buf: Buffer, length: number, position: number): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${position + done}`);
    done += bytesRead;
  }
}

import type { Checkpoint } from "@langchain/langgraph-checkpoint";

/**
 * A checkpoint (without `id` and `channel_values`) as the columns of its row: `v` and `ts` as
 * typed columns (`ts` only when it is an ISO time that reads back as the same text — 8 bytes
 * instead of a 24-character string), `channel_versions` and `versions_seen` as JSON, and whatever
 * else a checkpoint carries (e.g. `pending_sends` of old checkpoints) in `extra`.
 */
export interface CheckpointColumns {
  v: number | null;
  ts: string | null;
  channelVersions: string;
  versionsSeen: string;
  extra: string | null;
}

export function splitCheckpoint(checkpoint: Checkpoint): CheckpointColumns {
  const { id: _id, channel_values: _values, v, ts, channel_versions, versions_seen, ...rest } = checkpoint;
  const extra: Record<string, unknown> = { ...rest };
  let vColumn: number | null = null;
  if (Number.isInteger(v) && v >= -32768 && v <= 32767) vColumn = v;
  else if (v !== undefined) extra.v = v;
  let tsColumn: string | null = null;
  if (isRoundTripIso(ts)) tsColumn = ts;
  else if (ts !== undefined) extra.ts = ts;
  return {
    v: vColumn,
    ts: tsColumn,
    channelVersions: JSON.stringify(channel_versions ?? {}),
    versionsSeen: JSON.stringify(versions_seen ?? {}),
    extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
  };
}

/** The checkpoint from its row's columns (as text, `ts` formatted by {@link TS_SQL}). */
export function joinCheckpoint(
  id: string,
  columns: { v: number | null; ts: string | null; channelVersions: unknown; versionsSeen: unknown; extra: Record<string, unknown> | null },
): Checkpoint {
  const checkpoint = {
    ...(columns.extra ?? {}),
    id,
    channel_values: {},
    channel_versions: (columns.channelVersions ?? {}) as Checkpoint["channel_versions"],
    versions_seen: (columns.versionsSeen ?? {}) as Checkpoint["versions_seen"],
  } as Checkpoint;
  if (columns.v !== null) checkpoint.v = columns.v;
  if (columns.ts !== null) checkpoint.ts = columns.ts;
  return checkpoint;
}

/** SQL giving a timestamptz column `col` back as the ISO text JavaScript's toISOString writes. */
export function tsSql(col: string): string {
  return `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function isRoundTripIso(ts: unknown): ts is string {
  if (typeof ts !== "string" || ts.length !== 24 || ts < "1000") return false;
  const time = Date.parse(ts);
  return Number.isFinite(time) && new Date(time).toISOString() === ts;
}

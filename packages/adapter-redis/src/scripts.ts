import type { Cluster, Redis } from 'ioredis';

/** A standalone connection or a cluster: both take the same commands and scripts. */
export type RedisClient = Redis | Cluster;

/**
 * The write of a whole record (a hash), shared by the scripts that write one: `write(i)` takes value,
 * version, expiresAt, ttlMs, group and dueAt from ARGV[i] on ('' for no group, no due time).
 */
const WRITE_RECORD = `
local function write(at)
  redis.call('HSET', KEYS[1], 'value', ARGV[at], 'version', ARGV[at + 1], 'expiresAt', ARGV[at + 2])
  if ARGV[at + 4] == '' then redis.call('HDEL', KEYS[1], 'group') else redis.call('HSET', KEYS[1], 'group', ARGV[at + 4]) end
  if ARGV[at + 5] == '' then redis.call('HDEL', KEYS[1], 'dueAt') else redis.call('HSET', KEYS[1], 'dueAt', ARGV[at + 5]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[at + 3])
end`;

/**
 * Every step of the stores that reads and writes (or replaces a record), each one Lua script that
 * Redis runs atomically: no other command of any node runs between its reads and its writes. Times
 * come in as arguments (the caller's clock, epoch ms); native TTLs (PEXPIRE) only collect garbage, a
 * little after the clock says a record is dead. Times and counts to store come in as strings, so Lua formats none of them.
 *
 * Each script touches exactly one key, the one it declares (KEYS[1]), and builds none: that is what
 * keeps them working on a Redis Cluster while `redis-cli --cluster reshard` moves a slot. During a
 * move a slot's keys sit on either node, key by key. The old node runs a command only if every key it
 * names is still there; otherwise it answers ASK (none is: the client asks the new node) or TRYAGAIN
 * (some are: a command over several keys cannot run until the move ends). So a command on one key is
 * always served by whichever node holds it, while one on several keys of one slot, hash tag or not,
 * fails for as long as the move lasts; and a key a script reaches without declaring it ends the
 * script halfway (`Script attempted to access a non local key`), its writes so far kept.
 *
 * Inside a script Redis checks each command again: on the old node, a command on a key the script
 * itself just deleted (or emptied) is refused the same way. So a script never touches its key after
 * a step that may remove it: deleting, or removing a sorted set's members, comes last.
 */
const SCRIPTS = {
  /** KEYS: ticket. ARGV: expiresAt, hardExpiresAt, servicesGranted, data, ttlMs. */
  tesseraSaveTgt: `
redis.call('HSET', KEYS[1], 'kind', 'TGT', 'expiresAt', ARGV[1], 'hardExpiresAt', ARGV[2], 'servicesGranted', ARGV[3], 'data', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`,
  /** KEYS: a ticket granted under a TGT (ST, PGT, PT). ARGV: kind, expiresAt, data, ttlMs, usesLeft ('' for one use). */
  tesseraSaveGranted: `
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'expiresAt', ARGV[2], 'data', ARGV[3])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'usesLeft', ARGV[5]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`,
  /**
   * KEYS: the index of the tickets granted under a TGT. ARGV: ticket id, expiresAt, now, ttlMs. Adds
   * the ticket and forgets the tickets dead by the clock; the index lives as long as its longest-lived ticket.
   */
  tesseraIndexGranted: `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
return 1`,
  /**
   * KEYS: ST or PT. ARGV: now. Takes one use of a live ST or PT (removing it at its last) and returns
   * { data, expiresAt, kind, usesLeft before ('' for one use) }; nil for a TGT, a PGT, a dead or an unknown ticket.
   */
  tesseraConsume: `
local ticket = redis.call('HMGET', KEYS[1], 'kind', 'expiresAt', 'data', 'usesLeft')
if (ticket[1] ~= 'ST' and ticket[1] ~= 'PT') or tonumber(ticket[2]) <= tonumber(ARGV[1]) then return false end
if ticket[4] and tonumber(ticket[4]) > 1 then
  redis.call('HINCRBY', KEYS[1], 'usesLeft', -1)
else
  redis.call('DEL', KEYS[1])
end
return { ticket[3], ticket[2], ticket[1], ticket[4] or '' }`,
  /**
   * KEYS: TGT. ARGV: now, new expiresAt, ttlMs. Slides a live TGT (idle and hard limit both after
   * now) and counts the ST; returns { servicesGranted, data, hardExpiresAt }, or nil.
   */
  tesseraTouch: `
local tgt = redis.call('HMGET', KEYS[1], 'kind', 'expiresAt', 'hardExpiresAt', 'data')
local now = tonumber(ARGV[1])
if tgt[1] ~= 'TGT' or tonumber(tgt[2]) <= now or tonumber(tgt[3]) <= now then return false end
redis.call('HSET', KEYS[1], 'expiresAt', ARGV[2])
local granted = redis.call('HINCRBY', KEYS[1], 'servicesGranted', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return { granted, tgt[4], tgt[3] }`,
  /**
   * KEYS: TGT. ARGV: now, data. Replaces the data (the authentication) of a live TGT, as touch finds
   * it live; returns { expiresAt, hardExpiresAt, servicesGranted } as stored, nil when it is not.
   */
  tesseraUpdateTgtData: `
local tgt = redis.call('HMGET', KEYS[1], 'kind', 'expiresAt', 'hardExpiresAt', 'servicesGranted')
local now = tonumber(ARGV[1])
if tgt[1] ~= 'TGT' or tonumber(tgt[2]) <= now or tonumber(tgt[3]) <= now then return false end
redis.call('HSET', KEYS[1], 'data', ARGV[2])
return { tgt[2], tgt[3], tgt[4] }`,
  /**
   * KEYS: the live TGT gauge. ARGV: TGT id, expiresAt, now, ttlMs, 'XX' to update only a TGT counted
   * already (a slide, which must not count a TGT logged out meanwhile). Forgets TGTs dead by the clock;
   * lives as long as its longest-lived TGT.
   */
  tesseraCountTgt: `
if ARGV[5] == 'XX' then redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
return 1`,
  /**
   * KEYS: the index of the tickets granted under a TGT. ARGV: ids of tickets deleted already. Takes
   * them out of the index (the whole index when nothing else is left) and returns the entries that
   * remain, as ZRANGE WITHSCORES does: tickets indexed since the caller read it.
   */
  tesseraForgetGranted: `
local deleted = {}
for i = 1, #ARGV do deleted[ARGV[i]] = true end
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local rest, forget = {}, {}
for i = 1, #entries, 2 do
  if deleted[entries[i]] then
    forget[#forget + 1] = entries[i]
  else
    rest[#rest + 1] = entries[i]
    rest[#rest + 1] = entries[i + 1]
  end
end
if #rest == 0 then
  redis.call('DEL', KEYS[1])
else
  for i = 1, #forget, 1000 do redis.call('ZREM', KEYS[1], unpack(forget, i, math.min(i + 999, #forget))) end
end
return rest`,
  /** KEYS: a record. ARGV: the record (see WRITE_RECORD). Writes it whatever was there. */
  tesseraPutRecord: `${WRITE_RECORD}
write(1)
return 1`,
  /**
   * KEYS: a record. ARGV: now, the expected version ('' for none: no live record), then the record
   * (see WRITE_RECORD). Writes it only if the live record has that version; 1 when it did.
   */
  tesseraReplaceRecord: `${WRITE_RECORD}
local record = redis.call('HMGET', KEYS[1], 'version', 'expiresAt')
local live = record[2] and tonumber(record[2]) > tonumber(ARGV[1])
if ARGV[2] == '' then
  if live then return 0 end
elseif not live or record[1] ~= ARGV[2] then
  return 0
end
write(3)
return 1`,
  /** KEYS: a record. ARGV: now. Removes a live record and returns its value; nil for a dead or an unknown one. */
  tesseraTakeRecord: `
local record = redis.call('HMGET', KEYS[1], 'value', 'expiresAt')
if not record[1] or tonumber(record[2]) <= tonumber(ARGV[1]) then return false end
redis.call('DEL', KEYS[1])
return record[1]`,
  /** KEYS: a record. ARGV: group. Removes the record if it is in the group; 1 when it did. */
  tesseraDeleteRecordInGroup: `
if redis.call('HGET', KEYS[1], 'group') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`,
  /**
   * KEYS: the index of a group's records. ARGV: record id, its expiresAt, now, ttlMs. Adds the id, its
   * score only ever raised (GT), so it is never below the expiresAt of any record written to the group
   * under that id; forgets the ids dead by the clock. Lives as long as its longest-lived record.
   */
  tesseraIndexRecordGroup: `
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
return 1`,
  /** KEYS: the index of a group's records. ARGV: now. Returns the ids indexed as live at now, and forgets the others. */
  tesseraRecordGroupMembers: `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return ids`,
  /**
   * KEYS: the due index of a namespace. ARGV: record id, dueAt, ttlMs. Adds the id, its score only
   * ever lowered (LT), so it is never after the due time of any write of the record, done or refused.
   * Lives as long as its longest-lived record.
   */
  tesseraIndexRecordDue: `
redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
  /**
   * KEYS: the due index of a namespace. ARGV: record id, the score it was read with, the record's
   * dueAt ('' to forget the id). Changes the entry only if nothing changed it since it was read.
   */
  tesseraRepairRecordDue: `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1`,
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/**
 * Registers the scripts with the client, which sends each by EVALSHA and falls back to EVAL (loading
 * it) when a server answers NOSCRIPT, as one that just restarted does; in a cluster, node by node.
 */
export function defineScripts(client: RedisClient): void {
  for (const [name, lua] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: 1, lua });
}

type ScriptCommand = (...keysAndArgs: string[]) => Promise<unknown>;

/**
 * A Lua script of a store that is not the adapter's own (a module's), on one key, under the same
 * rules as the adapter's scripts above: it declares the one key it touches and builds none. Registered
 * with each client at its first run, then sent by EVALSHA as they are (EVAL on NOSCRIPT).
 */
export class RedisScript {
  private readonly definedOn = new WeakSet<RedisClient>();

  /** `name` is the client command it becomes: unique, and none of the adapter's own (`tessera…`). */
  constructor(
    private readonly name: string,
    private readonly lua: string,
  ) {
    if (name in SCRIPTS) throw new RangeError(`The Redis script name ${name} is one of the adapter's own`);
  }

  run(client: RedisClient, [key]: readonly [string], args: readonly (string | number)[]): Promise<unknown> {
    if (!this.definedOn.has(client)) {
      client.defineCommand(this.name, { numberOfKeys: 1, lua: this.lua });
      this.definedOn.add(client);
    }
    const command = (client as unknown as Record<string, ScriptCommand>)[this.name]!;
    return command.call(client, key, ...args.map(String));
  }
}

/** Runs a script registered by defineScripts on its one key (a tuple of one, so a second key does not compile). */
export function runScript(client: RedisClient, name: ScriptName, [key]: readonly [string], args: readonly (string | number)[]): Promise<unknown> {
  const command = (client as unknown as Record<ScriptName, ScriptCommand>)[name];
  return command.call(client, key, ...args.map(String));
}

import { StringTable } from './string-table.ts';
import { hashWord } from './text.ts';

// Interns strings into small integer ids with reference counts, so the index stores ids in
// typed arrays and forgets a term when its last monitor goes. Ids of forgotten terms are reused.

export class Vocabulary {
  readonly table: StringTable;
  private refs = new Int32Array(256);
  private readonly freeIds: number[] = [];
  private nextId = 0;
  private live = 0;

  /** `filtered`: put a Bloom filter in front of lookups (see OpenHashIndex). */
  constructor(filtered = false) {
    this.table = new StringTable(filtered);
  }

  /** Ids handed out so far, including free ones: arrays indexed by id need this length. */
  get idLimit(): number {
    return this.nextId;
  }

  get size(): number {
    return this.live;
  }

  /** The id of `key`, adding it if new; every call must be paired with one `release`. */
  intern(key: string, hash = hashWord(key)): number {
    let id = this.table.find(key, hash);
    if (id < 0) {
      id = this.freeIds.pop() ?? this.nextId++;
      if (id >= this.refs.length) {
        const grown = new Int32Array(this.refs.length * 2);
        grown.set(this.refs);
        this.refs = grown;
      }
      this.table.insert(id, key, hash);
      this.live++;
    }
    this.refs[id]!++;
    return id;
  }

  /** How many `intern` calls are not yet released. */
  references(id: number): number {
    return this.refs[id]!;
  }

  /** Drops one reference; returns the key when this was the last one and the id is now free. */
  release(id: number): string | undefined {
    if (--this.refs[id]! > 0) return undefined;
    const key = this.table.keyOf(id);
    if (key === undefined) return undefined;
    this.table.remove(id);
    this.freeIds.push(id);
    this.live--;
    return key;
  }

  find(key: string): number {
    return this.table.find(key);
  }

  keyOf(id: number): string | undefined {
    return this.table.keyOf(id);
  }
}

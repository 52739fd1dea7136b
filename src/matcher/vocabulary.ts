// Interns strings into small integer ids with reference counts, so the index stores ids in
// typed arrays and forgets a term when its last monitor goes. Ids of forgotten terms are reused.

export class Vocabulary {
  readonly ids = new Map<string, number>();
  private keys: (string | undefined)[] = [];
  private refs = new Int32Array(256);
  private readonly freeIds: number[] = [];

  /** Ids handed out so far, including free ones: arrays indexed by id need this length. */
  get idLimit(): number {
    return this.keys.length;
  }

  get size(): number {
    return this.ids.size;
  }

  /** The id of `key`, adding it if new; every call must be paired with one `release`. */
  intern(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.freeIds.pop() ?? this.keys.length;
      if (id === this.keys.length) this.keys.push(key);
      else this.keys[id] = key;
      if (id >= this.refs.length) {
        const grown = new Int32Array(this.refs.length * 2);
        grown.set(this.refs);
        this.refs = grown;
      }
      this.ids.set(key, id);
    }
    this.refs[id]!++;
    return id;
  }

  /** Drops one reference; returns the key when this was the last one and the id is now free. */
  release(id: number): string | undefined {
    if (--this.refs[id]! > 0) return undefined;
    const key = this.keys[id];
    if (key === undefined) return undefined;
    this.ids.delete(key);
    this.keys[id] = undefined;
    this.freeIds.push(id);
    return key;
  }

  keyOf(id: number): string | undefined {
    return this.keys[id];
  }
}

//! A minimal atom family: one atom per key, created on first use and kept (the device list of a
//! company is small). jotai's own `atomFamily` is deprecated in jotai 2 and gone in 3.

export interface Family<A> {
  (key: string): A;
  has(key: string): boolean;
  keys(): string[];
}

export function family<A>(create: (key: string) => A): Family<A> {
  const atoms = new Map<string, A>();
  const get = ((key: string) => {
    let a = atoms.get(key);
    if (!a) {
      a = create(key);
      atoms.set(key, a);
    }
    return a;
  }) as Family<A>;
  get.has = (key) => atoms.has(key);
  get.keys = () => [...atoms.keys()];
  return get;
}

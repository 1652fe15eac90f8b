// What capabilities add to one another. A capability that others extend (the
// conversation's answer: its `sla`, `statistics` and `rating` come from the sla
// and csat capabilities) declares an extension point in its own module; a
// capability that extends it says so in its module's `adds`, and the
// composition root (src/capabilities/index.ts) gathers every module's additions
// into CoreDeps.additions. So the owner imports none of its extenders (they
// import it, for the point's type), takes no arguments, and a new rating- or
// SLA-like feature is one folder: the owner's code does not change.

/** A place a capability opens for others to add to; `T` is what each addition gives. */
export interface ExtensionPoint<T> {
  readonly name: string;
  /** never set: carries `T` */
  readonly __adds?: T;
}

export const extensionPoint = <T>(name: string): ExtensionPoint<T> => ({ name });

/** One capability's addition to an extension point (a module's `adds`). */
export interface Addition {
  readonly to: ExtensionPoint<unknown>;
  readonly value: unknown;
}

export const addTo = <T>(to: ExtensionPoint<T>, value: T): Addition => ({ to: to as ExtensionPoint<unknown>, value });

/** Every module's additions, as the owner of an extension point reads them: in the modules' order. */
export class Additions {
  constructor(private readonly all: readonly Addition[]) {}

  /** Every addition to `point`, in the modules' order. */
  to<T>(point: ExtensionPoint<T>): T[] {
    return this.all.filter((a) => a.to === point).map((a) => a.value as T);
  }

  /** The one addition to `point`, or null when no module adds to it; more than one is a wiring error. */
  one<T>(point: ExtensionPoint<T>): T | null {
    const found = this.to(point);
    if (found.length > 1) throw new Error(`${found.length} modules add to ${point.name}, which takes one`);
    return found[0] ?? null;
  }
}

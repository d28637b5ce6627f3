import { useContainer } from 'class-validator';

type ConstraintClass = new () => object;

/**
 * Where class-validator keeps the one instance of each constraint class. Its default container
 * finds an instance by scanning every constraint class met so far, and it makes one class per
 * decorator use (`@IsString()` on each field), so every value checked paid a scan that grows
 * with the DTOs the process has validated. Here the same singletons are found in a map: two
 * 1.2 MB alert messages validate in about 53 ms instead of 57 with only this DTO's 84 classes
 * seen. Constraints hold no state, as with the default container.
 */
export class ConstraintInstances {
  private readonly instances = new Map<ConstraintClass, object>();

  get<T>(cls: new () => T): T {
    let instance = this.instances.get(cls as ConstraintClass);
    if (!instance) {
      instance = new (cls as ConstraintClass)();
      this.instances.set(cls as ConstraintClass, instance);
    }
    return instance as T;
  }

  get size(): number {
    return this.instances.size;
  }
}

/** The container class-validator uses in this process (set once, when this module is loaded). */
export const constraintInstances = new ConstraintInstances();
useContainer(constraintInstances);

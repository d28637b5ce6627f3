/** Snapshot file (under the repository root) -> the source folders whose statements it lists. */
export const SNAPSHOTS: Readonly<Record<string, readonly string[]>>;
/** The snapshot's text for the source as it is now. */
export function render(snapshot: string, dirs: readonly string[]): string;

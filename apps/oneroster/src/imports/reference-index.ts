/**
 * The sourcedIds a reference may resolve to while a package is validated: for a file the package
 * holds in bulk, exactly the ids of that file (records missing from it are about to be
 * tombstoned) plus, for gradebook files, the objects apps wrote through the API (an import
 * neither replaces nor tombstones those); for a delta or absent file, the tenant's stored ids
 * plus those of the delta file.
 * What else is kept per id comes from the layouts' `refIndex`: orgs keep their type (a class's
 * school must be a school), classes their school (an enrollment's school must be its class's),
 * orgs and sessions their parent (cycles); in v1.2 also line items their class (a result's
 * class is its line item's) and user profiles their user (a role's profile is its user's).
 */
import type { ClientBase } from 'pg';
import { layoutOf, type CsvBinding } from './csv-bindings';
import { V1P2_FILE_TYPES, type FileLayout, type RosterFileType } from './csv-layout';
import type { FileMode } from './manifest';

/** For orgs the org type, for classes the school; for other types '' or the line of the id. */
type IdMap = Map<string, string | number>;

export class ReferenceIndex {
  private readonly ids = new Map<RosterFileType, IdMap>();
  private readonly parentMaps = new Map<RosterFileType, Map<string, string>>();
  private readonly loaded = new Set<RosterFileType>();
  /** Types whose file could not be read (bad header): references to them are not checked. */
  private readonly unreliable = new Set<RosterFileType>();
  /** Stored gradebook ids written by apps through the API, per type. */
  private readonly appOwned = new Map<RosterFileType, Set<string>>();

  constructor(
    private readonly client: ClientBase,
    private readonly tenantId: string,
    private readonly modes: Readonly<Record<RosterFileType, FileMode>>,
    private readonly binding: CsvBinding,
  ) {
    for (const t of V1P2_FILE_TYPES) this.ids.set(t, new Map());
  }

  /** The binding's layout of a type. */
  layout(type: RosterFileType): FileLayout {
    return layoutOf(this.binding, type);
  }

  /** Loads the tenant's stored ids of `type` unless the package replaces them (bulk). Idempotent. */
  async ensure(type: RosterFileType): Promise<void> {
    if (this.loaded.has(type)) return;
    this.loaded.add(type);
    const layout = this.layout(type);
    if (this.modes[type] === 'bulk' && !layout.appWritable) return;
    const extra = layout.refIndex?.extra;
    const parent = layout.refIndex?.parent;
    const cols = [
      'sourced_id',
      extra ? `${extra} AS extra` : `'' AS extra`,
      parent ? `${parent} AS parent` : 'NULL AS parent',
      layout.appWritable ? 'owner_app_id IS NOT NULL AS owned' : 'false AS owned',
    ];
    // A bulk gradebook file replaces the imported objects only: the apps' stay.
    const only = this.modes[type] === 'bulk' ? ' AND owner_app_id IS NOT NULL' : '';
    const { rows } = await this.client.query<{
      sourced_id: string;
      extra: string;
      parent: string | null;
      owned: boolean;
    }>(`SELECT ${cols.join(', ')} FROM "${layout.table}" WHERE tenant_id = $1${only}`, [this.tenantId]);
    const map = this.ids.get(type)!;
    const owned = new Set<string>();
    for (const r of rows) {
      map.set(r.sourced_id, r.extra);
      if (r.parent !== null) this.parents(type).set(r.sourced_id, r.parent);
      if (r.owned) owned.add(r.sourced_id);
    }
    this.appOwned.set(type, owned);
  }

  /** The id names a gradebook object an app wrote through the API (after `ensure`). */
  isAppOwned(type: RosterFileType, id: string): boolean {
    return this.appOwned.get(type)?.has(id) ?? false;
  }

  /** Records `id` as present in the package (with its org type / class school, or its line). */
  add(type: RosterFileType, id: string, extra: string | number = ''): void {
    this.ids.get(type)!.set(id, extra);
  }

  /** The line recorded with `id` by `add`, if any. */
  line(type: RosterFileType, id: string): number | undefined {
    const v = this.ids.get(type)!.get(id);
    return typeof v === 'number' ? v : undefined;
  }

  has(type: RosterFileType, id: string): boolean {
    return this.unreliable.has(type) || this.ids.get(type)!.has(id);
  }

  /** Org type of an org, class school of a class; undefined when unknown or unchecked. */
  extra(type: RosterFileType, id: string): string | undefined {
    if (this.unreliable.has(type)) return undefined;
    const v = this.ids.get(type)!.get(id);
    return typeof v === 'string' ? v : undefined;
  }

  isChecked(type: RosterFileType): boolean {
    return !this.unreliable.has(type);
  }

  markUnreliable(type: RosterFileType): void {
    this.unreliable.add(type);
  }

  /** child → parent of orgs / academic sessions (stored, then the package's rows). */
  parents(type: RosterFileType): Map<string, string> {
    let map = this.parentMaps.get(type);
    if (!map) this.parentMaps.set(type, (map = new Map()));
    return map;
  }

  /** How a dangling reference is explained. */
  scope(type: RosterFileType): string {
    const file = this.layout(type).fileName;
    switch (this.modes[type]) {
      case 'bulk':
        return `in ${file}`;
      case 'delta':
        return `in ${file} or in the tenant's data`;
      case 'absent':
        return `in the tenant's data (${file} is absent)`;
    }
  }
}

/**
 * Members of parent cycles among `ids` (each cycle reported once, by its first member in `ids`
 * order). A parent outside the map ends the walk.
 */
export function findCycles(ids: Iterable<string>, parents: ReadonlyMap<string, string>): string[] {
  const state = new Map<string, 1 | 2>(); // 1 on the current path, 2 done
  const reported: string[] = [];
  for (const start of ids) {
    if (state.has(start)) continue;
    const path: string[] = [];
    let node: string | undefined = start;
    while (node !== undefined && !state.has(node)) {
      state.set(node, 1);
      path.push(node);
      node = parents.get(node);
    }
    if (node !== undefined && state.get(node) === 1) reported.push(node);
    for (const p of path) state.set(p, 2);
  }
  return reported;
}

/**
 * How a record's validated values become a table row and back: yes/no fields are stored as
 * 0/1 on both engines and read back as booleans; everything else is stored as it is. The
 * persons a record is for (a contact's 'Cares For') are not a column: they are kept beside
 * the row (record-persons.ts), and named here as `personsField`.
 */
import type { RecordDefinition } from '../../shared/records/definition';

export function recordRows(definition: RecordDefinition) {
  const fieldNames = Object.keys(definition.fields).filter(
    (name) => definition.fields[name]?.kind !== 'persons',
  );
  const personsField = Object.keys(definition.fields).find(
    (name) => definition.fields[name]?.kind === 'persons',
  );
  const flagNames = new Set(
    fieldNames.filter((name) => definition.fields[name]?.kind === 'checkbox'),
  );

  return {
    /** The fields stored as columns of the record's own table. */
    fieldNames,
    personsField,

    /** The stored columns of a record's own fields. */
    toRow(values: Record<string, unknown>): Record<string, unknown> {
      const row: Record<string, unknown> = {};
      for (const name of fieldNames) {
        const value = values[name];
        row[name] = flagNames.has(name) ? (value ? 1 : 0) : (value ?? null);
      }
      return row;
    },

    /**
     * A row as the API returns it, member name and colour included (null when not joined).
     * The row the driver made is the one returned, changed in place: a page is fifty rows,
     * and copying each was a measurable share of a list's time.
     */
    fromRow(row: Record<string, unknown>): Record<string, unknown> {
      row.family_member_name ??= null;
      row.family_member_color ??= null;
      for (const name of flagNames) row[name] = Boolean(row[name]);
      return row;
    },
  };
}

/**
 * The name and colour of the person each row is about, as lists, the timeline and today's
 * doses show them: the row's member's; on a record of an owner who shared themself, the
 * owner's name (see access/scope.ts `sharedSelvesOfScope`). A user with no such share runs
 * the member join alone, as before grants existed.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { DEFAULT_MEMBER_COLOR } from '../../shared/constants';
import { membersOfScope, sharedSelvesOfScope, type Scope } from '../access/scope';

// Any query whose rows have user_id and family_member_id, under any alias.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

/** Selects `family_member_name` and `family_member_color` for the rows of `row`. */
export function withPersonNames<Q extends AnySelect>(
  query: Q,
  scope: Scope,
  values: Record<string, unknown>,
  row: string,
): Q {
  const members = query.leftJoin('family_members as m', (join) =>
    join.onRef('m.id', '=', `${row}.family_member_id`).on(membersOfScope(scope, values, 'm')),
  );
  const selves = sharedSelvesOfScope(scope, values, 'owner');
  if (!selves) {
    return members.select(['m.name as family_member_name', 'm.color as family_member_color']) as Q;
  }
  return members
    .leftJoin('user as owner', (join) =>
      join
        .onRef('owner.id', '=', `${row}.user_id`)
        .on(`${row}.family_member_id`, 'is', null)
        .on(selves),
    )
    .select([
      sql<string>`coalesce(${sql.ref('m.name')}, ${sql.ref('owner.name')})`.as(
        'family_member_name',
      ),
      sql<string>`coalesce(${sql.ref('m.color')}, case when ${sql.ref('owner.id')} is null then null else ${DEFAULT_MEMBER_COLOR} end)`.as(
        'family_member_color',
      ),
    ]) as Q;
}

/**
 * The name and colour of the person a record is about, as lists and the timeline show
 * them: its member's (joined as `m`); on a record of an owner who shared themself, the
 * owner's name (joined as `owner`, see access/scope.ts `sharedSelvesOfScope`).
 */
import { sql } from 'kysely';
import { DEFAULT_MEMBER_COLOR } from '../../shared/constants';

export const memberOrOwnerColumns = () => [
  sql<string>`coalesce(${sql.ref('m.name')}, ${sql.ref('owner.name')})`.as('family_member_name'),
  sql<string>`coalesce(${sql.ref('m.color')}, case when ${sql.ref('owner.id')} is null then null else ${DEFAULT_MEMBER_COLOR} end)`.as(
    'family_member_color',
  ),
];

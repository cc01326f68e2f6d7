/**
 * The payers section of a C-CDA (LOINC 48768-6) as FHIR Coverage, which @medplum/ccda does
 * not convert: each coverage activity holds policy activities, each naming the payer (the
 * performer's organisation), the member id (the covered party's id) and the group or policy
 * id (the policy activity's own id), with the dates it runs.
 */
import type { Ccda } from '@medplum/ccda';
import type { Coverage } from '@medplum/fhirtypes';
import { ccdaDateTime } from './ccda-time';
import { type Node, nodes, textContent } from './ccda-nodes';
import { sectionKind, sectionsOf } from './ccda-sections';

const extensionOf = (ids: unknown) =>
  nodes(ids)
    .map((id) => id['@_extension'])
    .find((value): value is string => typeof value === 'string' && value.trim() !== '');

function payerName(policy: Node): string | null {
  for (const performer of nodes(policy.performer)) {
    const organization = nodes(nodes(performer.assignedEntity)[0]?.representedOrganization)[0];
    const name = textContent(organization?.name);
    if (name) return name;
  }
  return null;
}

function policyCoverage(policy: Node, id: string): Coverage | null {
  const payer = payerName(policy);
  if (!payer) return null;
  const covered = nodes(policy.participant).find((p) => p['@_typeCode'] === 'COV');
  const role = nodes(covered?.participantRole)[0];
  const memberId = extensionOf(role?.id);
  const group = extensionOf(policy.id);
  const [time] = nodes(nodes(covered?.time)[0] ?? policy.effectiveTime);
  const start = ccdaDateTime(time?.low);
  const end = ccdaDateTime(time?.high);
  const status = policy.statusCode && nodes(policy.statusCode)[0]?.['@_code'];
  return {
    resourceType: 'Coverage',
    id,
    status: status === 'cancelled' || status === 'aborted' ? 'cancelled' : 'active',
    beneficiary: {},
    payor: [{ display: payer }],
    ...(memberId ? { subscriberId: memberId } : {}),
    ...(group ? { class: [{ type: { coding: [{ code: 'group' }] }, value: group }] } : {}),
    ...(start || end ? { period: { ...(start ? { start } : {}), ...(end ? { end } : {}) } } : {}),
  };
}

/** Every policy the payers section names, as Coverage (ids stable: the policy's place and ids). */
export function payerCoverages(ccda: Ccda): Coverage[] {
  const coverages: Coverage[] = [];
  for (const section of sectionsOf(ccda)) {
    if (sectionKind(section) !== 'payers') continue;
    for (const entry of nodes(section.entry)) {
      for (const act of nodes(entry.act)) {
        for (const relation of nodes(act.entryRelationship)) {
          for (const policy of nodes(relation.act)) {
            const stamped = nodes(policy.id)[0]?.['@_root'];
            const coverage = policyCoverage(policy, String(stamped ?? coverages.length));
            if (coverage) coverages.push(coverage);
          }
        }
      }
    }
  }
  return coverages;
}

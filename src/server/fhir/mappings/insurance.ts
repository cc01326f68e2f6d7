/**
 * Insurance both ways: a policy is a Coverage, its insurer (R4's required payor) an
 * Organization; in, that Organization is read as the provider, never as a contact.
 */
import type { CodeableConcept, Coverage, Organization } from '@medplum/fhirtypes';
import { INSURANCE_TYPES } from '../../../shared/records/insurance';
import {
  SYSTEM,
  calendarDate,
  codedConcept,
  codesOf,
  derivedId,
  kinExtension,
  kinExtensions,
  period,
  pick,
  referenceTo,
} from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import {
  SKIP,
  displayOf,
  one,
  type ImportContext,
  type MapResult,
  type MappingContext,
} from './mapping';

/** Insurance types that are exactly a v3 ActCode policy type; the others stay text. */
const POLICY_CODE: Record<string, [string, string]> = {
  Medical: ['HIP', 'health insurance plan policy'],
  Dental: ['DENTAL', 'dental care policy'],
  Vision: ['VISPOL', 'vision care policy'],
};

export const POLICY_NUMBER_LABEL = 'Policy Number';

/** A policy is a Coverage; its insurer, which R4 requires as payor, an Organization. */
export function insuranceResources(
  insurance: FhirRows['insurance'],
  context: MappingContext,
): [Coverage, Organization] {
  const payorId = derivedId(insurance.id, 'payor');
  const policyCode = POLICY_CODE[insurance.insurance_type];
  const type: CodeableConcept = policyCode
    ? codedConcept(SYSTEM.actCode, policyCode[0], policyCode[1], insurance.insurance_type)
    : { text: insurance.insurance_type };
  return [
    {
      resourceType: 'Coverage',
      id: insurance.id,
      extension: kinExtensions({
        'insurance-deductible': insurance.deductible,
        'insurance-copay': insurance.copay,
        'insurance-coverage-details': insurance.coverage_details,
      }),
      identifier: insurance.policy_number
        ? [{ type: { text: POLICY_NUMBER_LABEL }, value: insurance.policy_number }]
        : undefined,
      status: insurance.status === 'past' ? 'cancelled' : 'active',
      type,
      beneficiary: context.patient,
      period: period(insurance.effective_date, insurance.expiry_date),
      payor: [referenceTo(payorId)],
      class: insurance.group_number
        ? [
            {
              type: codedConcept(SYSTEM.coverageClass, 'group', 'Group'),
              value: insurance.group_number,
            },
          ]
        : undefined,
    },
    {
      resourceType: 'Organization',
      id: payorId,
      type: [codedConcept(SYSTEM.organizationType, 'ins', 'Insurance Company')],
      name: insurance.provider_name,
    },
  ];
}

// ---- import ---------------------------------------------------------------------------

const INSURANCE_TYPE_OF_CODE: Record<string, (typeof INSURANCE_TYPES)[number]> = {
  HIP: 'Medical',
  DENTAL: 'Dental',
  VISPOL: 'Vision',
  DIS: 'Long-term Disability',
};

export function coverageRecord(coverage: Coverage, context: ImportContext): MapResult {
  if (coverage.status === 'entered-in-error') return SKIP;
  const provider = coverage.payor.map((payor) => displayOf(payor, context)).find(Boolean);
  if (!provider) return SKIP;
  const type = coverage.type;
  const cost = (code: string) => {
    const found = coverage.costToBeneficiary?.find((c) => codesOf(c.type).includes(code));
    const amount = found?.valueMoney ?? found?.valueQuantity;
    if (amount?.value === undefined) return null;
    const unit =
      'currency' in amount ? amount.currency : 'unit' in amount ? amount.unit : undefined;
    return [amount.value, unit].filter((part) => part !== undefined).join(' ');
  };
  const policy =
    coverage.identifier?.find((identifier) => identifier.type?.text === POLICY_NUMBER_LABEL) ??
    coverage.identifier?.[0];
  return one('insurance', {
    insurance_type:
      pick(INSURANCE_TYPES, type?.text) ??
      codesOf(type, SYSTEM.actCode)
        .map((code) => INSURANCE_TYPE_OF_CODE[code])
        .find(Boolean) ??
      // No type at all: left out, so the schema gives its default.
      (type ? 'Other' : undefined),
    provider_name: provider,
    policy_number: policy?.value ?? coverage.subscriberId ?? null,
    group_number:
      coverage.class?.find((item) => codesOf(item.type).includes('group'))?.value ?? null,
    coverage_details: kinExtension(coverage, 'insurance-coverage-details'),
    deductible: kinExtension(coverage, 'insurance-deductible') ?? cost('deductible'),
    copay: kinExtension(coverage, 'insurance-copay') ?? cost('copay'),
    effective_date: calendarDate(coverage.period?.start),
    expiry_date: calendarDate(coverage.period?.end),
    status: coverage.status === 'cancelled' ? 'past' : 'current',
  });
}

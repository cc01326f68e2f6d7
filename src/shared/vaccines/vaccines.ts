/**
 * The vaccines a parent picks from (the shot form's 'Vaccine'), the CVX code set they are
 * kept in, and matching a shot recorded without a code by its name. The lists are data
 * (reference/vaccine-choices.json, reference/cvx.json); this module only reads them.
 */
import cvxList from './reference/cvx.json' with { type: 'json' };
import choices from './reference/vaccine-choices.json' with { type: 'json' };

export interface VaccineChoice {
  /**
   * The usual name, as the form and the schedule show it: an English key, kept and sent as it
   * is and shown through `t(name)` (the shot form's options ask for each one's translation).
   */
  name: string;
  /** The CVX code a shot recorded with this choice keeps. */
  cvx: string;
  /** The CDSi vaccine group it belongs to (none for a vaccine outside the schedule). */
  group?: string;
  /** CVX codes a schedule dose may be given as for this name to be the one shown. */
  codes?: string[];
  /** The name of the group's doses given or due from 19 years of age (Pneumococcal, not PCV). */
  adult?: boolean;
  /** Lower-case names a shot may be recorded under and still be this vaccine. */
  aliases: string[];
}

export const vaccineChoices: readonly VaccineChoice[] = choices;

/** Every CVX code the product knows, with the CDC's short description. */
export const cvxNames: ReadonlyMap<string, string> = new Map(
  cvxList.map((entry) => [entry.cvx, entry.name]),
);

/** The label of a code: its usual name when it is one of the choices, else the CDC's. */
export function vaccineLabel(cvx: string): string | undefined {
  return vaccineChoices.find((choice) => choice.cvx === cvx)?.name ?? cvxNames.get(cvx);
}

const normalise = (name: string) =>
  ` ${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;

// Normalised once: a vaccine plan matches each of a person's shots without a code by name.
const choiceAliases = vaccineChoices.map((choice) => ({
  choice,
  aliases: choice.aliases.map(normalise),
}));

/**
 * The vaccine a shot's name means, when exactly one vaccine's names appear in it as whole
 * words ('MMR', 'Tdap booster', 'Flu shot 2024'); a name that could be two vaccines
 * ('DTaP-IPV', 'MMRV' is neither) matches none.
 */
export function matchVaccineByName(shotName: string): VaccineChoice | undefined {
  const name = normalise(shotName);
  const found = choiceAliases.filter(({ aliases }) =>
    aliases.some((alias) => name.includes(alias)),
  );
  return found.length === 1 ? found[0]!.choice : undefined;
}

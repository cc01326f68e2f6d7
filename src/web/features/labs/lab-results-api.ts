/** Lab results: panels entered at once. */
import type { LabPanelInput } from '../../../shared/labs/lab-panel';
import { answer } from '../../lib/api-request';
import { product } from '../../lib/api';

export const labResultsApi = {
  /** A panel: several results of one date and lab, saved all or none. */
  savePanel: (input: LabPanelInput) => answer(product.labs.panel.$post({ json: input })),
  /** Every result of the same test for the same person, newest first. */
  trend: (id: string) => answer(product.labs[':id'].trend.$get({ param: { id } })),
};

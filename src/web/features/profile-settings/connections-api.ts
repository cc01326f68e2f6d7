/** Connections to patient portals (SMART on FHIR). */
import type { ConnectRequest } from '../../../shared/connections';
import { answer } from '../../lib/api-request';
import { product } from '../../lib/api';

/** Patient portals (CONTRACT §6 'Connections'), as shared/connections.ts describes the routes. */
export const connectionsApi = {
  list: () => answer(product.connections.$get()),
  connect: (input: ConnectRequest) => answer(product.connections.$post({ json: input })),
  sync: (id: string) => answer(product.connections[':id'].sync.$post({ param: { id } })),
  reconnect: (id: string) => answer(product.connections[':id'].reconnect.$post({ param: { id } })),
  disconnect: (id: string) => answer(product.connections[':id'].$delete({ param: { id } })),
};

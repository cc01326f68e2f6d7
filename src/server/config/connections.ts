/**
 * The patient portals families may connect to (SMART_PROVIDERS): JSON, or the path of a JSON
 * file, read by connections/smart-providers.ts, whose message names the variable.
 */
import { z } from 'zod';
import { parseSmartProviders } from '../connections/smart-providers';
import { refuse } from './env';

export const smartProvidersEnv = z.object({
  SMART_PROVIDERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseSmartProviders(value);
      } catch (error) {
        return refuse(ctx, error instanceof Error ? error.message : String(error));
      }
    }),
});

/**
 * The LMS method (Cole & Green 1992), as the WHO and the CDC publish their growth references:
 * a measurement X at an age where the table gives L (Box-Cox power), M (median) and
 * S (coefficient of variation) has the z-score
 *   z = ((X/M)^L − 1) / (L·S)     (L ≠ 0)
 *   z = ln(X/M) / S               (L = 0)
 * and the value at a z-score is M·(1 + L·S·z)^(1/L) (M·e^(S·z) when L = 0).
 * Percentiles are the standard normal distribution's.
 */
import { currentLanguage, tr } from '../i18n/translate';

export interface Lms {
  L: number;
  M: number;
  S: number;
}

export function zFromLms({ L, M, S }: Lms, value: number): number {
  if (L === 0) return Math.log(value / M) / S;
  return ((value / M) ** L - 1) / (L * S);
}

/** The measurement at a z-score; NaN where the Box-Cox curve has no value there. */
export function valueFromLms({ L, M, S }: Lms, z: number): number {
  if (L === 0) return M * Math.exp(S * z);
  const base = 1 + L * S * z;
  return base > 0 ? M * base ** (1 / L) : Number.NaN;
}

/**
 * The standard normal CDF Φ(z), through erfc (W. J. Cody's rational approximations as given
 * in Numerical Recipes' erfcc: fractional error under 1.2e-7 everywhere).
 */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** The percentile (0–100) of a z-score. */
export function percentileFromZ(z: number): number {
  return normalCdf(z) * 100;
}

/**
 * The z-score of a percentile (0 < p < 100): Acklam's rational approximation of the inverse
 * normal CDF (relative error under 1.15e-9), used to draw the percentile curves.
 */
export function zFromPercentile(percentile: number): number {
  const p = percentile / 100;
  if (!(p > 0 && p < 1)) throw new RangeError(`A percentile is between 0 and 100: ${percentile}`);
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2,
    -3.066479806614716e1, 2.506628277459239,
  ] as const;
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1,
    -1.328068155288572e1,
  ] as const;
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ] as const;
  const d = [
    7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416,
  ] as const;
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  const low = 0.02425;
  if (p < low) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - low) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/**
 * A percentile as people read it on a chart: a whole ordinal ('3rd', '50th', '97th'); below
 * half a percent '<1st', from 99.5 up '>99th' (a whole number there would read as certain
 * as the middle of the range, and '0th' or '100th' as impossible).
 */
export function formatPercentile(percentile: number): string {
  const whole = Math.round(percentile);
  // English writes its ordinals by rule; another language's come from its catalogue.
  const nth = (n: number) =>
    currentLanguage() === 'en' ? ordinal(n) : tr('{n}th (percentile)', { n });
  if (whole < 1) return `<${nth(1)}`;
  if (whole > 99) return `>${nth(99)}`;
  return nth(whole);
}

/** 1 → '1st', 2 → '2nd', 3 → '3rd', 11 → '11th', 22 → '22nd'. */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  const suffixes: Record<number, string> = { 1: 'st', 2: 'nd', 3: 'rd' };
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : (suffixes[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The patient's time zone for quiet hours: from the link's state, else its ZIP code's first three digits, else the
 * practice's. States that span two zones get the zone most of their people live in; ZIP prefixes fix the big
 * exceptions (El Paso, the Florida panhandle, West Tennessee and Kentucky, northern Idaho).
 */
const E = 'America/New_York';
const C = 'America/Chicago';
const M = 'America/Denver';
const AZ = 'America/Phoenix';
const P = 'America/Los_Angeles';

const STATES: Record<string, [string, string]> = {
  AL: ['alabama', C],
  AK: ['alaska', 'America/Anchorage'],
  AZ: ['arizona', AZ],
  AR: ['arkansas', C],
  CA: ['california', P],
  CO: ['colorado', M],
  CT: ['connecticut', E],
  DE: ['delaware', E],
  DC: ['district of columbia', E],
  FL: ['florida', E],
  GA: ['georgia', E],
  HI: ['hawaii', 'Pacific/Honolulu'],
  ID: ['idaho', 'America/Boise'],
  IL: ['illinois', C],
  IN: ['indiana', 'America/Indiana/Indianapolis'],
  IA: ['iowa', C],
  KS: ['kansas', C],
  KY: ['kentucky', E],
  LA: ['louisiana', C],
  ME: ['maine', E],
  MD: ['maryland', E],
  MA: ['massachusetts', E],
  MI: ['michigan', 'America/Detroit'],
  MN: ['minnesota', C],
  MS: ['mississippi', C],
  MO: ['missouri', C],
  MT: ['montana', M],
  NE: ['nebraska', C],
  NV: ['nevada', P],
  NH: ['new hampshire', E],
  NJ: ['new jersey', E],
  NM: ['new mexico', M],
  NY: ['new york', E],
  NC: ['north carolina', E],
  ND: ['north dakota', C],
  OH: ['ohio', E],
  OK: ['oklahoma', C],
  OR: ['oregon', P],
  PA: ['pennsylvania', E],
  RI: ['rhode island', E],
  SC: ['south carolina', E],
  SD: ['south dakota', C],
  TN: ['tennessee', C],
  TX: ['texas', C],
  UT: ['utah', M],
  VT: ['vermont', E],
  VA: ['virginia', E],
  WA: ['washington', P],
  WV: ['west virginia', E],
  WI: ['wisconsin', C],
  WY: ['wyoming', M],
  PR: ['puerto rico', 'America/Puerto_Rico'],
  GU: ['guam', 'Pacific/Guam'],
  VI: ['virgin islands', 'America/St_Thomas'],
};
const BY_NAME = new Map(Object.values(STATES).map(([name, tz]) => [name, tz]));

/** [first three ZIP digits from, to, zone], in order. */
const ZIP3: [number, number, string][] = [
  [5, 5, E],
  [6, 9, 'America/Puerto_Rico'],
  [10, 299, E],
  [300, 323, E],
  [324, 325, C],
  [326, 349, E],
  [350, 369, C],
  [370, 372, C],
  [373, 379, E],
  [380, 385, C],
  [386, 397, C],
  [398, 399, E],
  [400, 418, E],
  [420, 427, C],
  [430, 459, E],
  [460, 479, 'America/Indiana/Indianapolis'],
  [480, 499, 'America/Detroit'],
  [500, 577, C],
  [580, 588, C],
  [590, 599, M],
  [600, 693, C],
  [700, 797, C],
  [798, 799, M],
  [800, 834, M],
  [835, 838, P],
  [840, 847, M],
  [850, 865, AZ],
  [870, 884, M],
  [889, 898, P],
  [900, 961, P],
  [967, 968, 'Pacific/Honolulu'],
  [969, 969, 'Pacific/Guam'],
  [970, 994, P],
  [995, 999, 'America/Anchorage'],
];

export function timeZoneForLink(link: { state: string; zip_code: string }, fallback: string): string {
  const s = link.state.trim();
  const byState = STATES[s.toUpperCase()]?.[1] ?? BY_NAME.get(s.toLowerCase());
  // A ZIP is more precise than a state that spans two zones; it wins when both are known.
  const zip = /^(\d{3})/.exec(link.zip_code.trim());
  if (zip) {
    const n = Number(zip[1]);
    const hit = ZIP3.find(([a, b]) => n >= a && n <= b);
    if (hit) return hit[2];
  }
  return byState ?? fallback;
}

/** The practice's zone: PRACTICE_TIME_ZONE, else the server's. */
export function practiceTimeZone(configured: string | undefined): string {
  return configured || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The local hour (0-23) at an instant in a zone. */
function localHour(at: Date, timeZone: string): number {
  const h = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(at);
  return Number(h) % 24;
}

function isQuiet(at: Date, timeZone: string, quiet: { start: number; end: number } | null): boolean {
  if (!quiet) return false;
  const h = localHour(at, timeZone);
  return quiet.start > quiet.end ? h >= quiet.start || h < quiet.end : h >= quiet.start && h < quiet.end;
}

/** The first instant at or after `at` outside quiet hours (15-minute steps, so 8:00 sharp for whole-hour zones). */
export function nextAllowedTime(at: Date, timeZone: string, quiet: { start: number; end: number } | null): Date {
  if (!isQuiet(at, timeZone, quiet)) return at;
  const step = 15 * 60_000;
  let t = Math.ceil(at.getTime() / step) * step;
  for (let i = 0; i < 4 * 25; i++, t += step) {
    if (!isQuiet(new Date(t), timeZone, quiet)) return new Date(t);
  }
  return at;
}

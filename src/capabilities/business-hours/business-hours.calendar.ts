// Business-time arithmetic on a workspace's calendar: which instants are inside
// business hours, how many business seconds lie between two instants, and which
// instant is N business seconds after another. Wall-clock times are turned into
// instants by @date-fns/tz (the IANA database through Intl), so a day that
// changes its offset (daylight saving) has the hours it has on the wall clock.
import { TZDate } from '@date-fns/tz';

export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Day = (typeof DAYS)[number];

export interface Interval {
  day: Day;
  /** HH:MM, wall clock in the calendar's zone */
  start: string;
  /** HH:MM after start; 24:00 for the end of the day */
  end: string;
}

export interface BusinessCalendar {
  time_zone: string;
  intervals: Interval[];
  /** YYYY-MM-DD in the calendar's zone: closed all day */
  holidays: string[];
}

/** How far ahead addBusinessSeconds looks for open time before it gives up (a calendar of holidays only). */
const HORIZON_DAYS = 800;
const DAY_MS = 86_400_000;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const pad = (n: number) => String(n).padStart(2, '0');

/** The open windows [start, end) in ms of the local day y-m-d (month 0-based). */
function windowsOfDay(cal: BusinessCalendar, y: number, m: number, d: number): [number, number][] {
  const date = `${y}-${pad(m + 1)}-${pad(d)}`;
  if (cal.holidays.includes(date)) return [];
  const weekday = DAYS[new Date(Date.UTC(y, m, d)).getUTCDay()]!;
  const at = (mins: number) => new TZDate(y, m, d, Math.floor(mins / 60), mins % 60, 0, cal.time_zone).getTime();
  return cal.intervals
    .filter((i) => i.day === weekday)
    .map((i): [number, number] => [at(minutes(i.start)), at(minutes(i.end))])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
}

/** The open windows, day by day from the local day of `from`, clipped to start at `from`. */
function* windowsFrom(cal: BusinessCalendar, from: number, days: number): Generator<[number, number]> {
  const local = new TZDate(from, cal.time_zone);
  // Walk calendar days in UTC arithmetic on the local date (never on instants): 23- and 25-hour days stay one day.
  const base = Date.UTC(local.getFullYear(), local.getMonth(), local.getDate());
  for (let i = 0; i < days; i++) {
    const day = new Date(base + i * DAY_MS);
    for (const [s, e] of windowsOfDay(cal, day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())) {
      if (e <= from) continue;
      yield [Math.max(s, from), e];
    }
  }
}

/** Business seconds between two instants (0 when `to` is not after `from`). */
export function businessSecondsBetween(cal: BusinessCalendar, from: Date, to: Date): number {
  const f = from.getTime();
  const t = to.getTime();
  if (t <= f) return 0;
  let total = 0;
  for (const [s, e] of windowsFrom(cal, f, Math.ceil((t - f) / DAY_MS) + 2)) {
    if (s >= t) break;
    total += Math.min(e, t) - s;
  }
  return Math.floor(total / 1000);
}

/** The instant `seconds` business seconds after `from`; null when the calendar has no open time ahead. */
export function addBusinessSeconds(cal: BusinessCalendar, from: Date, seconds: number): Date | null {
  let left = seconds * 1000;
  for (const [s, e] of windowsFrom(cal, from.getTime(), HORIZON_DAYS)) {
    if (e - s >= left) return new Date(s + left);
    left -= e - s;
  }
  return null;
}

/** Calendar or business arithmetic, as a policy asks: no calendar (none set) counts every second. */
export const addSeconds = (cal: BusinessCalendar | null, from: Date, seconds: number): Date | null =>
  cal ? addBusinessSeconds(cal, from, seconds) : new Date(from.getTime() + seconds * 1000);

export const secondsBetween = (cal: BusinessCalendar | null, from: Date, to: Date): number =>
  cal ? businessSecondsBetween(cal, from, to) : Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));

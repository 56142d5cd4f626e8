/**
 * The patient's time zone for messages (decision 0217): from the link's address (ZIP code's first three digits, else
 * its state), else the phone's NANP area code, else the practice's effective zone. States that span two zones get the
 * zone most of their people live in; ZIP prefixes fix the big exceptions (El Paso, the Florida panhandle, West
 * Tennessee and Kentucky, northern Idaho). Area codes are mapped one zone each, the zone most of their numbers are in.
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

/** [zone, area codes]: US, Canada and the US territories (NANP). Codes not listed (555, toll-free…) give nothing. */
const AREA_CODES: [string, string][] = [
  [
    E,
    '202 203 207 212 215 216 220 223 229 234 239 240 252 267 272 276 283 301 302 304 305 315 321 326 330 332 336 339 ' +
      '347 351 352 380 386 401 404 407 410 412 413 419 423 434 440 443 445 470 475 478 484 502 508 513 516 518 540 ' +
      '551 561 567 570 571 582 585 586 603 606 607 609 610 614 617 631 640 646 656 667 678 680 681 689 703 704 706 ' +
      '716 717 718 724 727 732 740 743 754 757 762 770 771 772 774 781 786 802 803 804 813 814 826 828 835 838 839 ' +
      '843 845 848 854 856 857 859 860 862 863 864 865 878 904 908 910 912 914 917 919 929 934 937 941 943 948 954 ' +
      '959 973 978 980 984',
  ],
  ['America/Detroit', '231 248 269 313 517 616 679 734 810 906 947 989'],
  ['America/Indiana/Indianapolis', '260 317 463 574 765 812 930'],
  [
    C,
    '205 210 214 217 218 219 224 225 228 251 254 256 262 270 274 281 308 309 312 314 316 318 319 320 325 327 331 ' +
      '334 337 346 361 364 402 405 409 414 417 430 432 447 448 464 469 479 501 504 507 512 515 531 534 539 557 563 ' +
      '572 573 580 601 605 608 612 615 618 620 629 630 636 641 651 659 660 662 682 701 708 712 713 715 726 730 731 ' +
      '737 763 769 773 779 785 806 815 816 817 830 832 847 850 870 872 901 903 913 918 920 931 936 938 940 945 952 ' +
      '956 972 975 979 985',
  ],
  [M, '303 307 385 406 435 505 575 719 720 801 915 970 983'],
  ['America/Boise', '208 986'],
  [AZ, '480 520 602 623 928'],
  [
    P,
    '206 209 213 253 279 310 323 341 350 360 408 415 424 425 442 458 503 509 510 530 541 559 562 564 619 626 628 ' +
      '650 657 661 669 702 707 714 725 747 760 775 805 818 820 840 858 909 916 925 949 951 971',
  ],
  ['America/Anchorage', '907'],
  ['Pacific/Honolulu', '808'],
  ['America/Puerto_Rico', '787 939'],
  ['Pacific/Guam', '671'],
  ['America/St_Thomas', '340'],
  [
    'America/Toronto',
    '226 249 263 289 343 354 365 367 382 416 418 437 438 450 468 514 519 548 579 581 613 647 683 705 742 753 807 819 873 905',
  ],
  ['America/Winnipeg', '204 431 584'],
  ['America/Regina', '306 474 639'],
  ['America/Edmonton', '368 403 587 780 825'],
  ['America/Vancouver', '236 250 604 672 778'],
  ['America/Halifax', '782 902'],
  ['America/Moncton', '428 506'],
  ['America/St_Johns', '709 879'],
];
const BY_AREA_CODE = new Map(AREA_CODES.flatMap(([tz, codes]) => codes.split(' ').map((c) => [c, tz] as const)));

/** The zone of a NANP phone's area code ("(212) 555-0100", "+12125550100"); null when unknown or not NANP. */
export function timeZoneForPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  // "+" numbers must be +1; national numbers are 10 digits, or 11 with the leading 1.
  const national = trimmed.startsWith('+')
    ? digits.startsWith('1') && digits.length === 11
      ? digits.slice(1)
      : null
    : digits.length === 11 && digits.startsWith('1')
      ? digits.slice(1)
      : digits.length === 10
        ? digits
        : null;
  return national ? (BY_AREA_CODE.get(national.slice(0, 3)) ?? null) : null;
}

/** The address's zone (ZIP beats a state that spans two zones); null when neither is known. */
function timeZoneForAddress(link: { state?: string | null; zip_code?: string | null }): string | null {
  const zip = /^(\d{3})/.exec((link.zip_code ?? '').trim());
  if (zip) {
    const n = Number(zip[1]);
    const hit = ZIP3.find(([a, b]) => n >= a && n <= b);
    if (hit) return hit[2];
  }
  const s = (link.state ?? '').trim();
  return STATES[s.toUpperCase()]?.[1] ?? BY_NAME.get(s.toLowerCase()) ?? null;
}

export type MessageZoneSource = 'address' | 'area-code' | 'practice';

/** The one rule for a link's zone in messages: its address, else its phone's area code, else the practice's zone. */
export function messageZoneFor(
  link: { state?: string | null; zip_code?: string | null; phone?: string | null },
  practiceZone: string,
): { timeZone: string; source: MessageZoneSource } {
  const byAddress = timeZoneForAddress(link);
  if (byAddress) return { timeZone: byAddress, source: 'address' };
  const byPhone = timeZoneForPhone(link.phone);
  if (byPhone) return { timeZone: byPhone, source: 'area-code' };
  return { timeZone: practiceZone, source: 'practice' };
}

/** The local hour (0-23) at an instant in a zone. */
function localHour(at: Date, timeZone: string): number {
  const h = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(at);
  return Number(h) % 24;
}

export function isQuiet(at: Date, timeZone: string, quiet: { start: number; end: number } | null): boolean {
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

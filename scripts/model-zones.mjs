// The model layer's runs in time zones far from UTC (`npm test`, `npm run test:faults`): an instant
// written without its zone reads as local time, and every run in UTC reads it alike.
//
// Not every model file runs again per zone: only those whose code under test reads, writes or
// forwards an instant (contract/calendar.ts, the launch countdown, the app's calendar hand-over,
// the session's public_data, the error modal's ISO times, the home's share text with the launch
// day, the payment receipt's tier). Measured on the 2-core host (2026-12-01): the whole model
// project takes about 110 s; these files about 11 s per zone (the payment view paths alone would
// add 25 s per zone and read no instant).
export const ZONES = ['America/New_York', 'Asia/Kolkata'];

export const ZONE_FILES = [
  'tests/model/oracle.test.ts',
  'tests/model/launch.paths.test.ts',
  'tests/model/app.paths.test.ts',
  'tests/model/session.paths.test.ts',
  'tests/model/errorModal.paths.test.tsx',
  'tests/model/home.paths.test.ts',
  'tests/model/payment.effects.test.ts',
];

//! Public surface of the turns feature (issue 23): recording a turn, the device page's turn
//! section, and an Ulcer Risk alarm's reason (the banner, the card, the alarm history and the
//! ward board read it from here).
export { AlarmReasonText, alarmReasonText } from './alarmReason';
export { RecordTurnButton } from './RecordTurnButton';
export { TurnsPanel } from './TurnsPanel';
export { getTurns, recordTurn, TURN_POSITIONS, type TurnEntry, type TurnPosition, type TurnRecorded } from './turnsApi';

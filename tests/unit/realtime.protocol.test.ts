import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../support/paths/property';
import {
  MAX_FRAME_BYTES,
  notificationBanner,
  parseClientFrame,
  parseServerFrame,
  utf8Length,
} from '../../contract/realtime';

/** The wire protocol: parsing never throws, and only well-formed known frames pass. */

describe('realtime protocol', () => {
  it('accepts the received types of §3 and keeps their fields', () => {
    expect(parseServerFrame('{"type":"pong","timestamp":5}')).toEqual({
      ok: true,
      frame: { type: 'pong', timestamp: 5 },
    });
    const message = {
      type: 'room_message',
      room: 'chat',
      message: 'hi',
      data: { a: 1 },
      from: 'user:1',
      timestamp: 9,
    };
    expect(parseServerFrame(JSON.stringify(message))).toEqual({ ok: true, frame: message });
    for (const type of ['welcome', 'joined', 'left', 'room_update', 'error'])
      expect(parseServerFrame(JSON.stringify({ type, room: 'chat' })).ok).toBe(true);
  });

  it('ignores malformed, unknown, roomless and oversized frames with a reason', () => {
    const rejected = [
      '{oops',
      '[]',
      '"text"',
      'null',
      '{"no":"type"}',
      '{"type":"teleport"}',
      '{"type":"joined"}',
      '{"type":"room_message","room":"bad room!"}',
      JSON.stringify({ type: 'pong', pad: 'x'.repeat(MAX_FRAME_BYTES) }),
      new ArrayBuffer(4),
    ];
    for (const raw of rejected) {
      const parsed = parseServerFrame(raw);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason).not.toBe('');
    }
  });

  it('never throws on any input', () => {
    assertProperty(
      'realtime frames: parsing never throws',
      fc.property(fc.oneof(fc.string(), fc.json(), fc.anything()), (raw) => {
        parseServerFrame(raw);
        parseClientFrame(raw);
      }),
    );
  });

  it('counts UTF-8 bytes like the encoder does', () => {
    assertProperty(
      'realtime frames: UTF-8 length',
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
  });

  it('makes a banner from data.type and data.text, defaulting to New notification', () => {
    expect(notificationBanner({ type: 'warning', text: 'Careful' })).toEqual({
      message: 'Careful',
      type: 'warning',
    });
    expect(notificationBanner({ type: 'nonsense' })).toEqual({
      message: 'New notification',
      type: 'info',
    });
    expect(notificationBanner(undefined)).toEqual({ message: 'New notification', type: 'info' });
  });
});

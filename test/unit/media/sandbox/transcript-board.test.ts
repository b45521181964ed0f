import { describe, expect, it } from 'vitest';
import { TranscriptBoard } from '../../../../media-service/src/sandbox/transcript-board';

describe('TranscriptBoard', () => {
  it('pops each call’s utterances in order, independently of other calls', () => {
    // Arrange
    const board = new TranscriptBoard();
    board.push('CA1', 'Hello.');
    board.push('CA2', 'Other call.');
    board.push('CA1', '  Book me in.  ');
    board.push('CA1', '   ');
    // Act + Assert
    expect(board.pending('CA1')).toEqual(['Hello.', 'Book me in.']);
    expect([board.next('CA1'), board.next('CA1'), board.next('CA1')]).toEqual(['Hello.', 'Book me in.', undefined]);
    expect(board.next('CA2')).toBe('Other call.');
  });

  it('forget() drops what an ended call never said', () => {
    const board = new TranscriptBoard();
    board.push('CA1', 'Unsaid.');
    board.forget('CA1');
    expect(board.next('CA1')).toBeUndefined();
  });
});

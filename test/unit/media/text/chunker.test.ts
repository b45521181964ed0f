import { describe, expect, it } from 'vitest';
import { SentenceChunker } from '../../../../media-service/src/text/chunker';

/** Feeds text in small deltas (as an LLM streams it) and returns every piece, flush included. */
function chunk(text: string, deltaSize = 3, chunker = new SentenceChunker()): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += deltaSize) pieces.push(...chunker.push(text.slice(i, i + deltaSize)));
  pieces.push(...chunker.flush());
  return pieces;
}

describe('SentenceChunker', () => {
  describe.each([
    {
      name: 'splits at sentence ends',
      text: 'Hello there! How are you today? I am fine.',
      pieces: ['Hello there!', 'How are you today?', 'I am fine.'],
    },
    { name: 'keeps decimals whole', text: 'It costs 3.50 today. That is all.', pieces: ['It costs 3.50 today.', 'That is all.'] },
    {
      name: 'keeps titles with their names',
      text: 'Dr. Smith and Mrs. Jones will see you. Bring your card.',
      pieces: ['Dr. Smith and Mrs. Jones will see you.', 'Bring your card.'],
    },
    {
      name: 'keeps initials and e.g.',
      text: 'Ask J. R. Tolkien, e.g. about books. Thanks.',
      pieces: ['Ask J. R. Tolkien, e.g. about books.', 'Thanks.'],
    },
    {
      name: 'ends at p.m. only before a capital',
      text: 'Come at 5 p.m. tomorrow or at 6 p.m. See you then.',
      pieces: ['Come at 5 p.m. tomorrow or at 6 p.m.', 'See you then.'],
    },
    {
      name: 'keeps thousands and times',
      text: 'We have 1,000 slots at 10:30 each day. Book now.',
      pieces: ['We have 1,000 slots at 10:30 each day.', 'Book now.'],
    },
    {
      name: 'keeps "No. 5" but ends at "No."',
      text: 'It is No. 5 on the list. No. I cannot do that.',
      pieces: ['It is No. 5 on the list.', 'No.', 'I cannot do that.'],
    },
    {
      name: 'keeps closing quotes with the sentence',
      text: 'She said "hello." Then she left.',
      pieces: ['She said "hello."', 'Then she left.'],
    },
    { name: 'treats ellipses and ?! as one end', text: 'Well... maybe?! Sure.', pieces: ['Well...', 'maybe?!', 'Sure.'] },
    { name: 'splits at newlines', text: 'First line\nSecond line', pieces: ['First line', 'Second line'] },
    {
      name: 'cuts the first piece early at a clause once it has 20 characters',
      text: 'Absolutely, I can help you with that, and I will book the earliest slot we have available this week.',
      pieces: ['Absolutely, I can help you with that,', 'and I will book the earliest slot we have available this week.'],
    },
    { name: 'does not cut a short first clause', text: 'Sure, I can do that.', pieces: ['Sure, I can do that.'] },
  ])('$name', ({ text, pieces }) => {
    it.each([1, 3, 7, 1000])('with %i-character deltas', (size) => {
      // Act
      const got = chunk(text, size);
      // Assert
      expect(got).toEqual(pieces);
    });
  });

  it('later clauses need 60 characters before they may end a piece', () => {
    // Arrange
    const text =
      'Yes, of course. After that, we can look at the rest, including the cleaning, the whitening and the checkup, which takes about an hour in total.';
    // Act
    const got = chunk(text, 5);
    // Assert
    expect(got).toEqual([
      'Yes, of course.',
      'After that, we can look at the rest, including the cleaning,',
      'the whitening and the checkup, which takes about an hour in total.',
    ]);
  });

  it('holds a possible boundary until the next character arrives', () => {
    // Arrange
    const chunker = new SentenceChunker();
    // Act
    const first = chunker.push('The price is 3.');
    const second = chunker.push('50 dollars. ');
    // Assert
    expect(first).toEqual([]);
    expect(second).toEqual(['The price is 3.50 dollars.']);
  });

  it('cuts a run-on text without punctuation at a space past maxChars', () => {
    // Arrange
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    // Act
    const got = chunk(words, 4, new SentenceChunker({ maxChars: 50 }));
    // Assert
    expect(got.length).toBeGreaterThan(3);
    for (const piece of got) expect(piece.length).toBeLessThanOrEqual(50);
    expect(got.join(' ')).toBe(words);
  });

  it('reset() drops buffered text after a barge-in and starts a new reply', () => {
    // Arrange
    const chunker = new SentenceChunker();
    chunker.push('This will be interrupted');
    // Act
    chunker.reset();
    const got = [...chunker.push('Okay, go ahead and tell me. '), ...chunker.flush()];
    // Assert
    expect(got).toEqual(['Okay, go ahead and tell me.']);
  });
});

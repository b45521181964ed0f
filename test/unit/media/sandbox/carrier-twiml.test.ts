import { describe, expect, it } from 'vitest';
import { parseTwiml, unescapeXml } from '../../../../media-service/src/sandbox/carrier-twiml';
import { connectStreamTwiml, dialTwiml, sayAndHangupTwiml } from '../../../../media-service/src/telephony/twiml';

describe('parseTwiml', () => {
  it('reads <Connect><Stream> with its <Parameter>s, as our TwiML builder writes them', () => {
    // Arrange
    const xml = connectStreamTwiml('wss://media.example.com/twilio/media', { callId: '42', token: 'a&b"c' });
    // Act
    const verbs = parseTwiml(xml);
    // Assert
    const connect = {
      verb: 'Connect',
      stream: { url: 'wss://media.example.com/twilio/media', parameters: { callId: '42', token: 'a&b"c' } },
    };
    expect(verbs).toEqual([connect, connect, connect]);
  });

  it('keeps the stream name and tolerates whitespace, comments and single quotes', () => {
    // Arrange
    const xml = `<?xml version="1.0"?>
      <!-- comment -->
      <Response>
        <Connect>
          <Stream url='ws://127.0.0.1:9/m' name="main">
            <Parameter name="a" value="1" />
            <Parameter name="b"/>
          </Stream>
        </Connect>
      </Response>`;
    // Act
    const verbs = parseTwiml(xml);
    // Assert
    expect(verbs).toEqual([{ verb: 'Connect', stream: { url: 'ws://127.0.0.1:9/m', name: 'main', parameters: { a: '1', b: '' } } }]);
  });

  it('reads Say, Pause, Dial, Hangup and Reject in order', () => {
    // Arrange
    const xml =
      '<Response><Say voice="alice"> Hello &amp; welcome &#x263A; </Say><Pause length="2"/><Pause/>' +
      '<Dial callerId="+15550100001"><Number>+15550100999</Number></Dial><Dial>+15550100998</Dial><Hangup/><Reject reason="busy"/></Response>';
    // Act
    const verbs = parseTwiml(xml);
    // Assert
    expect(verbs).toEqual([
      { verb: 'Say', text: 'Hello & welcome ☺' },
      { verb: 'Pause', lengthS: 2 },
      { verb: 'Pause', lengthS: 1 },
      { verb: 'Dial', number: '+15550100999', callerId: '+15550100001' },
      { verb: 'Dial', number: '+15550100998' },
      { verb: 'Hangup' },
      { verb: 'Reject', reason: 'busy' },
    ]);
  });

  it('parses the documents our own builders produce', () => {
    // Act
    const said = parseTwiml(sayAndHangupTwiml('Sorry <we> are busy'));
    const dial = parseTwiml(dialTwiml('+15550100999', '+15550100001'));
    // Assert
    expect(said).toEqual([{ verb: 'Say', text: 'Sorry <we> are busy' }, { verb: 'Hangup' }]);
    expect(dial).toEqual([{ verb: 'Dial', number: '+15550100999', callerId: '+15550100001' }]);
  });

  it('keeps an unknown verb as unsupported and a <Connect> without a stream url as a bare Connect', () => {
    // Act
    const verbs = parseTwiml('<Response><Gather input="dtmf"/><Connect><Stream/></Connect></Response>');
    // Assert
    expect(verbs).toEqual([{ verb: 'unsupported', name: 'Gather' }, { verb: 'Connect' }]);
  });

  it.each([
    ['mismatched tags', '<Response><Say>hi</Pause></Response>', 'unexpected </Pause>'],
    ['an unclosed element', '<Response><Say>hi</Say>', 'unclosed <Response>'],
    ['a broken tag', '<Response><Say>hi</Say><Hangup</Response>', 'malformed tag'],
    ['a truncated document', '<Response><Hangup/></Response', 'unclosed <Response>'],
    ['a root that is not <Response>', '<Say>hi</Say>', 'the root element must be <Response>'],
    ['two roots', '<Response/><Response/>', 'the root element must be <Response>'],
    ['an empty body', '', 'the root element must be <Response>'],
  ])('answers an error string for %s', (_case, xml, message) => {
    // Act
    const result = parseTwiml(xml);
    // Assert
    expect(typeof result).toBe('string');
    expect(result).toContain(message);
  });
});

describe('unescapeXml', () => {
  it('reverses named and numeric references and leaves unknown ones alone', () => {
    expect(unescapeXml('&lt;a&gt; &quot;&apos; &#65;&#x42; &nbsp;')).toBe(`<a> "' AB &nbsp;`);
  });
});

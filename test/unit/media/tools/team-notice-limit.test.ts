import { describe, expect, it } from 'vitest';
import type { TeamNotice } from '../../../../media-service/src/ports/team-notifier';
import { notifyTeam } from '../../../../media-service/src/tools/notify-team';
import { takeMessage } from '../../../../media-service/src/tools/take-message';
import type { ToolPorts } from '../../../../media-service/src/tools/tool-types';
import { defaultBusinessProfile } from '../../../../shared/domain/business-profile';
import type { Message } from '../../../../shared/domain/message';
import { runnerForTools } from '../../../support/tool-runner';

/** One call's runner over in-memory ports: messages kept in a list, team notices counted. */
function runner() {
  const notices: TeamNotice[] = [];
  let id = 0;
  const ports: Partial<ToolPorts> = {
    messages: { leave: async (_business, input) => ({ ...input, id: ++id, created_at: new Date().toISOString() }) as Message },
    team: {
      notify: async (notice) => {
        notices.push(notice);
        return { email: 'sent', sms: 'none' };
      },
    },
  };
  const tools = runnerForTools([takeMessage, notifyTeam], ports, {
    profile: { ...defaultBusinessProfile(), team_emails: ['desk@acme.test'] },
  });
  return { tools, notices };
}

describe('team notices per call', () => {
  it('tells the team of at most 5 messages a call; later messages are saved, and notify_team refuses in plain words', async () => {
    // Arrange
    const { tools, notices } = runner();
    const message = JSON.stringify({ name: 'Sam Lee', message: 'Call me back.' });
    // Act
    for (let i = 0; i < 5; i++) await tools.run({ name: 'take_message', arguments: message });
    const sixth = JSON.parse(await tools.run({ name: 'take_message', arguments: message })) as Record<string, unknown>;
    const alert = JSON.parse(await tools.run({ name: 'notify_team', arguments: JSON.stringify({ message: 'Now!' }) })) as { error: string };
    // Assert
    expect(notices).toHaveLength(5);
    expect(sixth).toMatchObject({ saved: true, team_notified: false });
    expect(alert.error).toMatch(/^The team has already been alerted 5 times on this call/);
    expect(tools.actions().map((action) => action.result)).toEqual([
      ...Array.from({ length: 5 }, (_, i) => `message ${i + 1} saved; team emailed`),
      'message 6 saved; team notice limit reached',
      '',
    ]);
  });
});

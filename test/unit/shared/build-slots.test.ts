import { describe, expect, it } from 'vitest';
import { BuildSlots } from '../../../shared/knowledge/build-slots';

/** A job that runs until released, recording when it started. */
function blocking(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { job: async () => void (started.push(name), await done), release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BuildSlots', () => {
  it('runs at most the total and the per-group limit at once, and starts another group before a busy one', async () => {
    // Arrange: 2 at once, 1 a group
    const slots = new BuildSlots(2, 1);
    const started: string[] = [];
    const a1 = blocking(started, 'a1');
    const a2 = blocking(started, 'a2');
    const b1 = blocking(started, 'b1');
    const c1 = blocking(started, 'c1');
    // Act
    const runs = [slots.run('a', a1.job), slots.run('a', a2.job), slots.run('b', b1.job), slots.run('c', c1.job)];
    await settle();
    // Assert: a1 and b1 run; a2 waits for a's slot, c1 for a total slot
    expect(started).toEqual(['a1', 'b1']);
    expect(slots.waiting).toBe(2);
    // Act: b1 ends; c1 goes (a is still busy), not a2
    b1.release();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'c1']);
    // Act: a1 ends; a2 goes
    a1.release();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
    a2.release();
    c1.release();
    await Promise.all(runs);
    expect(slots.waiting).toBe(0);
  });

  it("starts a group that waited behind another group's queue before that group's next job", async () => {
    // Arrange: one at a time; a runs a1 with a2 and a3 queued, then b1 arrives
    const slots = new BuildSlots(1, 1);
    const started: string[] = [];
    const jobs = ['a1', 'a2', 'a3', 'b1'].map((name) => blocking(started, name));
    const runs = jobs.map((job, i) => slots.run(i < 3 ? 'a' : 'b', job.job));
    await settle();
    // Act: a1 ends, then whatever started next
    jobs[0]!.release();
    await settle();
    jobs[3]!.release();
    await settle();
    // Assert: b1 went before a2
    expect(started).toEqual(['a1', 'b1', 'a2']);
    jobs[1]!.release();
    await settle();
    jobs[2]!.release();
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it("frees a failed job's slot and hands its error to the caller", async () => {
    // Arrange
    const slots = new BuildSlots(1, 1);
    // Act
    const failed = slots.run('a', async () => {
      throw new Error('DynamoDB is down');
    });
    const next = slots.run('a', async () => 'built');
    // Assert
    await expect(failed).rejects.toThrow('DynamoDB is down');
    await expect(next).resolves.toBe('built');
  });
});

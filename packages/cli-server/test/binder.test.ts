import { expect } from 'chai';
import { Container } from 'inversify';
import { Binder, key, type Key } from '@tessera/cli-server';

/** A resource that records, in one shared list, when it opens and when it closes. */
interface Recorded {
  readonly name: string;
}

function recordingBinder() {
  const binder = new Binder(new Container());
  const events: string[] = [];
  const resource = (name: string, options: { failOpen?: boolean; failClose?: boolean; asynchronous?: boolean; dependencies?: Key<Recorded>[] } = {}): Key<Recorded> => {
    const resourceKey = key<Recorded>(name);
    binder.resource(
      resourceKey,
      options.dependencies ?? [],
      (...opened: Recorded[]) => {
        events.push(`open ${name}${opened.length > 0 ? ` after ${opened.map((dependency) => dependency.name).join(', ')}` : ''}`);
        if (options.failOpen) throw new Error(`${name} cannot open`);
        return options.asynchronous ? Promise.resolve({ name }) : { name };
      },
      (value) => {
        events.push(`close ${value.name}`);
        if (options.failClose) throw new Error(`${value.name} cannot close`);
      },
    );
    return resourceKey;
  };
  return { binder, events, resource };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error as Error,
  );
}

// Binder: everything with a lifetime opens in the order it was bound, and closes in the reverse
describe('Binder resources', () => {
  it('open in the order they were bound, each once, and close in the reverse order', async () => {
    const { binder, events, resource } = recordingBinder();
    const log = resource('log');
    resource('storage', { asynchronous: true });
    resource('listener', { dependencies: [log] });
    await binder.open();
    await binder.open();
    expect(events).to.deep.equal(['open log', 'open storage', 'open listener after log']);
    events.length = 0;
    await binder.close();
    expect(events).to.deep.equal(['close listener', 'close storage', 'close log']);
  });

  it('are closed once, however often close() is called', async () => {
    const { binder, events, resource } = recordingBinder();
    resource('storage', { asynchronous: true });
    await binder.open();
    await Promise.all([binder.close(), binder.close()]);
    await binder.close();
    expect(events.filter((event) => event.startsWith('close'))).to.deep.equal(['close storage']);
  });

  it('when one fails to open: those opened before it close in reverse, the later ones never open, and open() rejects with its error', async () => {
    const { binder, events, resource } = recordingBinder();
    resource('log');
    resource('storage', { asynchronous: true });
    resource('listener', { failOpen: true });
    resource('jobs');
    const error = await rejection(binder.open());
    expect(error.message).to.equal('listener cannot open');
    expect(events).to.deep.equal(['open log', 'open storage', 'open listener', 'close storage', 'close log']);
    await binder.close();
    expect(events).to.have.length(5);
  });

  it('a failure to close what had opened does not hide the failure to open', async () => {
    const { binder, events, resource } = recordingBinder();
    resource('log');
    resource('storage', { failClose: true });
    resource('listener', { failOpen: true });
    expect((await rejection(binder.open())).message).to.equal('listener cannot open');
    expect(events.slice(-2)).to.deep.equal(['close storage', 'close log']);
  });

  it('one failing to close: the others still close, then close() rejects with that failure', async () => {
    const { binder, events, resource } = recordingBinder();
    resource('log');
    resource('storage', { failClose: true });
    resource('listener');
    await binder.open();
    expect((await rejection(binder.close())).message).to.equal('storage cannot close');
    expect(events.slice(3)).to.deep.equal(['close listener', 'close storage', 'close log']);
  });

  it('one resolved before open() (it opens at once, for what depends on it) is opened once and closed with the others', async () => {
    const { binder, events, resource } = recordingBinder();
    const log = resource('log');
    resource('storage', { asynchronous: true });
    expect(binder.get(log)).to.deep.equal({ name: 'log' });
    await binder.open();
    await binder.close();
    expect(events).to.deep.equal(['open log', 'open storage', 'close storage', 'close log']);
  });

  it('close() while open() is under way waits for the resource opening, opens no further one, and closes what opened', async () => {
    const binder = new Binder(new Container());
    const events: string[] = [];
    let connect: (value: Recorded) => void = () => undefined;
    let connecting: () => void = () => undefined;
    const connectingStarted = new Promise<void>((resolve) => (connecting = resolve));
    binder.resource(
      key<Recorded>('storage'),
      [],
      () =>
        new Promise<Recorded>((resolve) => {
          connect = resolve;
          connecting();
        }),
      (value) => void events.push(`close ${value.name}`),
    );
    binder.resource(
      key<Recorded>('listener'),
      [],
      () => (events.push('open listener'), { name: 'listener' }),
      (value) => void events.push(`close ${value.name}`),
    );
    const opening = rejection(binder.open());
    await connectingStarted;
    const closing = binder.close();
    connect({ name: 'storage' });
    await closing;
    expect((await opening).message).to.equal('closed while opening');
    expect(events).to.deep.equal(['close storage']);
  });
});

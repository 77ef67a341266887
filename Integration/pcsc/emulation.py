"""`nfc emulate` as a context manager, shared by the integration suites."""
import contextlib
import signal
import subprocess

from wait_reader import wait_for_card


def stop(process):
    """Ends an emulator: SIGINT (it saves its image and exits), SIGKILL after 15 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def emulated(nfc, image, reader, *options):
    """Runs `nfc emulate --pcsc` on IMAGE (OPTIONS such as `--vpcd HOST:PORT` pick the reader)
    until the block ends; yields the process once pcscd sees the card in READER, and on the way
    out waits until pcscd has registered the card's departure (its event counter moved on)."""
    process = subprocess.Popen([nfc, "emulate", "--image", image, "--pcsc", *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    counter = None
    try:
        try:
            _, counter = wait_for_card(reader, True, 15)
        except TimeoutError:
            process.kill()
            raise RuntimeError("nfc emulate %s: the card never appeared in %s; the emulator said: %s"
                               % (" ".join(options), reader, process.communicate()[1].strip()))
        yield process
    finally:
        stop(process)
        wait_for_card(reader, False, 15, counter=counter)

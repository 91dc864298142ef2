"""Waiting for a Parlor server started by one of the tools here to answer."""
import time
import urllib.request


def wait_until_up(base, server, what, pause=0.1, tries=300):
    """Returns once `base`/health answers; exits naming `what` if the process `server` (a
    subprocess.Popen) ended first or never answered."""
    for _ in range(tries):
        try:
            urllib.request.urlopen(base + "/health")
            return
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"{what} exited ({server.returncode}) before answering")
            time.sleep(pause)
    raise SystemExit(f"{what} did not answer on {base}")

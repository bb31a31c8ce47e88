# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs one of Shepard's command lines for an algorithm: progress to the feedback, messages to the log, cancel."""

import codecs
import os
import queue
import shlex
import subprocess
import threading

from qgis.core import QgsProcessingException
from qgis.PyQt.QtCore import QCoreApplication

from .progress_bar import ProgressBarReader

# How often a running tool is checked for a cancel request, in seconds.
_POLL_INTERVAL = 0.1
# How long a tool may take to clean up after SIGTERM (it removes its temporary outputs) before it is killed.
_TERMINATE_GRACE = 10.0


def _tr(text):
    return QCoreApplication.translate("Shepard", text)


def _pump(stream, chunks):
    """Reader thread: passes what STREAM gives to CHUNKS as it comes, then None at its end."""
    try:
        while True:
            data = os.read(stream.fileno(), 4096)
            if not data:
                break
            chunks.put(data)
    finally:
        chunks.put(None)


def _stop(process):
    process.terminate()
    try:
        process.wait(timeout=_TERMINATE_GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def run_tool(executable, arguments, feedback):
    """Runs EXECUTABLE with ARGUMENTS; returns its standard output as text.

    Its progress bar drives FEEDBACK's progress, its other lines on standard error go to the log (those that start
    with the tool's name, its error messages, as errors). A cancel through FEEDBACK ends the tool (which leaves no
    output behind) and raises QgsProcessingException, as does a failure, with the tool's own message."""
    tool = os.path.splitext(os.path.basename(executable))[0]
    command = [executable, *arguments]
    feedback.pushCommandInfo(" ".join(shlex.quote(part) for part in command))
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
    except OSError as error:
        raise QgsProcessingException(_tr("Could not start {tool}: {reason}").format(tool=tool, reason=error))

    stderr_chunks = queue.Queue()
    stdout_parts = []
    stderr_thread = threading.Thread(target=_pump, args=(process.stderr, stderr_chunks), daemon=True)
    stdout_thread = threading.Thread(target=lambda: stdout_parts.append(process.stdout.read()), daemon=True)
    stderr_thread.start()
    stdout_thread.start()

    reader = ProgressBarReader()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    errors = []
    error_prefix = tool + ":"

    def report(lines):
        for line in lines:
            # The tool's own messages go into the exception on failure (once in the log), else into a warning.
            if line.startswith(error_prefix):
                errors.append(line[len(error_prefix):].strip())
            else:
                feedback.pushInfo(line)

    cancelled = False
    while True:
        if not cancelled and feedback.isCanceled():
            cancelled = True
            feedback.pushInfo(_tr("Cancelling {tool}").format(tool=tool))
            _stop(process)
        try:
            data = stderr_chunks.get(timeout=_POLL_INTERVAL)
        except queue.Empty:
            continue
        if data is None:
            break
        report(reader.feed(decoder.decode(data)))
        if reader.percent is not None:
            feedback.setProgress(reader.percent)
    report(reader.feed(decoder.decode(b"", final=True)) + reader.finish())

    status = process.wait()
    stderr_thread.join()
    stdout_thread.join()
    process.stdout.close()
    process.stderr.close()
    if cancelled and status != 0:
        raise QgsProcessingException(_tr("Cancelled: {tool} stopped and wrote no output").format(tool=tool))
    if cancelled:
        feedback.pushInfo(_tr("{tool} had finished before the cancel reached it").format(tool=tool))
    if status != 0:
        reason = "; ".join(errors) if errors else _tr("no message")
        raise QgsProcessingException(
            _tr("{tool} failed (exit status {status}): {reason}").format(tool=tool, status=status, reason=reason))
    for message in errors:
        feedback.pushWarning("{}: {}".format(tool, message))
    return b"".join(stdout_parts).decode("utf-8", errors="replace")

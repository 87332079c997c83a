/// The PyODM session `ServeCommandTests` runs against `photogrammetry serve`: the real client from
/// PyPI for the task life cycle, and `requests` for what a well-behaved client never sends.
/// Prints one JSON object with what it saw; the test asserts on it.
enum ServeClientScript {
    static let source = #"""
import glob, json, os, sys, time, zipfile
import requests
from pyodm import Node
from pyodm.exceptions import NodeResponseError, TaskFailedError

port, token, capture, downloads = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
base = "http://127.0.0.1:%d" % port
seen = {}
# Unauthenticated: PyODM without the token (first: PyODM keeps a token it once sent in a shared
# default argument), raw requests without and with a wrong token.
try:
    Node("127.0.0.1", port).info()
    seen["no_token_client"] = "accepted"
except NodeResponseError as e:
    seen["no_token_client"] = "refused: %s" % e
node = Node("127.0.0.1", port, token=token)
seen["info"] = node.info().__dict__
seen["options"] = [o.name for o in node.options()]
r = requests.get(base + "/task/list")
seen["no_token"] = [r.status_code, r.json()]
r = requests.get(base + "/task/list", params={"token": "wrong"})
seen["wrong_token"] = [r.status_code, r.json()]

# The task life cycle through PyODM: photos and K.txt in chunks, progress polled to completion.
photos = sorted(glob.glob(os.path.join(capture, "images", "*.jpg")))
files = photos + [os.path.join(capture, "images", "K.txt")]
progress = []
task = node.create_task(files, {"detail": "preview", "model-format": "glb"}, name="vase")
task.wait_for_completion(status_callback=lambda i: progress.append([i.status.value, i.progress]), interval=0.5)
info = task.info()
seen["task"] = {"uuid": task.uuid, "status": info.status.value, "images": info.images_count, "name": info.name,
                "progress": progress, "options": info.options, "processing_ms": info.processing_time}
task.download_assets(downloads)
seen["assets"] = sorted(os.listdir(downloads))
seen["output_tail"] = task.output(-3)
# Byte ranges: the whole archive, PyODM's parallel chunked download (5 chunks), and raw ranges.
url = base + "/task/%s/download/all.zip" % task.uuid
whole = requests.get(url, params={"token": token})
seen["whole_zip"] = [whole.status_code, whole.headers.get("Accept-Ranges"), len(whole.content)]
parallel_dir = downloads + "-parallel"
zip_path = task.download_zip(parallel_dir, parallel_chunks_size=len(whole.content) / 5.0 / (1024 * 1024))
with open(zip_path, "rb") as f:
    seen["parallel_zip_equal"] = f.read() == whole.content
def ranged(spec):
    r = requests.get(url, params={"token": token}, headers={"Range": spec})
    size = len(whole.content)
    expected = {"bytes=0-9": whole.content[:10], "bytes=-10": whole.content[-10:], "bytes=10-": whole.content[10:],
                "bytes=5-%d" % (size + 100): whole.content[5:]}.get(spec, whole.content)
    return [r.status_code, r.headers.get("Content-Range"), r.content == expected if r.status_code != 416 else len(r.content)]
size = len(whole.content)
seen["ranges"] = {spec: ranged(spec) for spec in ["bytes=0-9", "bytes=-10", "bytes=10-", "bytes=5-%d" % (size + 100),
                                                   "bytes=%d-" % size, "bytes=9-3", "bytes=0-1,5-6", "items=0-9"]}
seen["list"] = [t["uuid"] for t in requests.get(base + "/task/list", params={"token": token}).json()]
r = requests.get(base + "/task/%s/download/job-manifest.json" % task.uuid, params={"token": token})
seen["manifest_download"] = [r.status_code, "files" in r.text]

# Traversal: a path as an upload's file name, a path as a task id, a path as an asset.
init = requests.post(base + "/task/new/init", params={"token": token}, files={"name": (None, "evil")}).json()
evil = init["uuid"]
r = requests.post(base + "/task/new/upload/" + evil, params={"token": token},
                  files={"images": ("../../../escaped.jpg", b"\xff\xd8\xff\xd9", "image/jpeg")})
seen["upload_traversal"] = [r.status_code, r.json()]
r = requests.post(base + "/task/new/upload/" + evil, params={"token": token},
                  files={"images": ("..\\..\\escaped.jpg", b"\xff\xd8\xff\xd9", "image/jpeg")})
seen["upload_backslash"] = [r.status_code, r.json()]
r = requests.post(base + "/task/new/upload/" + evil, params={"token": token},
                  files={"images": ("run.sh", b"#!/bin/sh\n", "text/x-sh")})
seen["upload_not_photo"] = [r.status_code, r.json()]
r = requests.get(base + "/task/..%2F..%2Fbatch/info", params={"token": token})
seen["uuid_traversal"] = [r.status_code, r.json()]
r = requests.get(base + "/task/%s/download/..%%2F..%%2Fbatch%%2Fledger.sqlite" % task.uuid, params={"token": token})
seen["asset_traversal"] = [r.status_code, r.json()]
r = requests.post(base + "/task/new/commit/" + evil, params={"token": token})
seen["commit_without_photos"] = [r.status_code, r.json()]
# Names in other scripts are kept as sent, so two of them never become one file.
r = requests.post(base + "/task/new/upload/" + evil, params={"token": token},
                  files=[("images", ("写真1.jpg", b"\xff\xd8\xff\xd9", "image/jpeg")),
                         ("images", ("画像1.jpg", b"\xff\xd8\xff\xd9", "image/jpeg"))])
seen["upload_unicode"] = [r.status_code, r.json()]
seen["evil_uuid"] = evil

# Cancel a running task, restart it with other options, then remove it.
second = node.create_task(files, {"detail": "reduced"}, name="to cancel")
for _ in range(600):
    if second.info().status.value == 20 and second.info().progress > 0: break
    time.sleep(0.1)
seen["cancel"] = second.cancel()
# The cancel answers once the task is cancelled: its status at once, and a restart at once.
seen["cancelled_status"] = second.info().status.value
seen["restart"] = second.restart({"detail": "none", "bounds": True, "dsm": True})
second.wait_for_completion(interval=0.5)
seen["restarted"] = {"status": second.info().status.value, "options": second.info().options}
seen["second_uuid"] = second.uuid
seen["second_output"] = second.output()
# Any line number, the most negative too; a task id in upper case finds its task.
r = requests.get(base + "/task/%s/output" % second.uuid, params={"token": token, "line": "-9223372036854775808"})
seen["output_min_line"] = [r.status_code, len(r.json())]
r = requests.get(base + "/task/%s/info" % second.uuid.upper(), params={"token": token})
seen["upper_case_info"] = [r.status_code, r.json().get("uuid")]
seen["remove"] = second.remove()
r = requests.get(base + "/task/%s/info" % second.uuid, params={"token": token})
seen["removed_info"] = [r.status_code, r.json()]
# A body far larger than any form is refused as too large.
r = requests.post(base + "/task/cancel", params={"token": token}, data=b"x" * (2 << 20),
                  headers={"Content-Type": "application/octet-stream"})
seen["oversized_form"] = [r.status_code, r.json()]
print(json.dumps(seen))
"""#
}

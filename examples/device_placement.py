"""Train on the best device this machine has, and say why it was chosen.

Asks the device layer where a training job would run (the choice that
device="auto" makes: CUDA first, then Apple's GPU, then a Vulkan GPU,
else the CPU), prints the decision with the reason for every device it
considered, and trains there. On a machine without a GPU it trains on the
CPU. See docs/devices.md.

    python3 examples/device_placement.py [REQUEST]

REQUEST defaults to "auto"; others: "cuda", "vulkan", "cpu",
"auto,memory=8G" (a device with 8 GiB usable), "cuda:1".
"""

import sys

import numpy as np

import gpulayer

request = sys.argv[1] if len(sys.argv) > 1 else "auto"

# Every device this host has, with whether this library's backends can use it.
for d in gpulayer.devices():
    state = "usable" if d.backend_available else f"not usable: {d.backend_reason or 'no backend'}"
    print(f"found {d.label:10s} {d.name} ({state})")

# backend=True: only devices this library can train on, as training chooses.
placement = gpulayer.place(request, backend=True)
if placement:
    device = placement.devices[0]
    print(f"chosen: {device}: {placement.why}")
else:
    # A refusal says why for every device; fall back to the CPU.
    device = "cpu"
    print(f"request {request!r} refused: {placement.why}; training on the cpu instead")
for label, reason in placement.reasons.items():
    print(f"  {label:10s} {'chosen' if label in placement.devices else reason}")

# A small synthetic regression: y depends on two of the five features.
rng = np.random.default_rng(0)
x = rng.normal(size=(20000, 5)).astype(np.float32)
y = 2 * x[:, 0] - x[:, 1] ** 2 + rng.normal(scale=0.1, size=len(x))
train = gpulayer.Dataset(x[:16000], label=y[:16000])
test = gpulayer.Dataset(x[16000:], label=y[16000:])
history = {}
booster = gpulayer.train({"device": device, "max_depth": 6, "eval_metric": "rmse"}, train,
                         num_boost_round=50, evals=[(test, "test")], evals_result=history)
print(f"result: trained on {device}, test rmse {history['test']['rmse'][-1]:.4f}")

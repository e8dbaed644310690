"""Builds the tiny ONNX model the ORT wrapper tests run, and the outputs Python onnxruntime gives for it.

Run from anywhere: python3 Tests/SketchEvalTests/Fixtures/make_fixture.py
Writes tiny.onnx (x[N,6] -> Gemm -> Tanh = "hidden", Softmax(hidden) = "probs") and tiny-expected.json
(seeded inputs and onnxruntime's outputs), which SketchEvalTests compare against within 1e-5.
"""
import json
import pathlib

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

HERE = pathlib.Path(__file__).resolve().parent
rng = np.random.default_rng(20261121)
weights = rng.normal(size=(6, 4)).astype(np.float32)
bias = rng.normal(size=(4,)).astype(np.float32)

graph = helper.make_graph(
    [
        helper.make_node("Gemm", ["x", "W", "b"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["hidden"]),
        helper.make_node("Softmax", ["hidden"], ["probs"], axis=1),
    ],
    "tiny",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 6])],
    [
        helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", 4]),
        helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 4]),
    ],
    initializer=[numpy_helper.from_array(weights, "W"), numpy_helper.from_array(bias, "b")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
(HERE / "tiny.onnx").write_bytes(model.SerializeToString())

x = rng.normal(size=(5, 6)).astype(np.float32)
session = ort.InferenceSession(str(HERE / "tiny.onnx"), providers=["CPUExecutionProvider"])
hidden, probs = session.run(["hidden", "probs"], {"x": x})
expected = {
    "onnxruntime": ort.__version__,
    "input": {"name": "x", "shape": list(x.shape), "values": x.ravel().tolist()},
    "outputs": {
        "hidden": {"shape": list(hidden.shape), "values": hidden.ravel().tolist()},
        "probs": {"shape": list(probs.shape), "values": probs.ravel().tolist()},
    },
}
(HERE / "tiny-expected.json").write_text(json.dumps(expected, indent=1) + "\n")

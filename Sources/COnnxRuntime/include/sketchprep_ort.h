/// A small C surface over the ONNX Runtime C API, used by SketchEval.
///
/// Why a C shim instead of importing onnxruntime_c_api.h into Swift: the shim declares only the
/// part of the C API it calls (`ort_minimal_c_api.h`, committed), so a fresh clone builds every
/// target, eval included, with a plain `swift build` and nothing fetched. The library itself is
/// never linked: it is loaded with dlopen from a path chosen at run time (OnnxRuntimeLibraryLocator).
///
/// Every function reports failure by returning NULL / non-zero and writing a NUL-terminated
/// message into `error` (at most `error_capacity` bytes, truncated if needed).
#ifndef SKETCHPREP_ORT_H
#define SKETCHPREP_ORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded ONNX Runtime library with its OrtApi table and one OrtEnv.
typedef struct sp_ort_runtime sp_ort_runtime;
/// One inference session (a loaded model) created from a runtime.
typedef struct sp_ort_session sp_ort_session;

/// The ORT C API version this build requests (SP_ORT_API_VERSION: 1, which every library serves).
uint32_t sp_ort_requested_api_version(void);

/// dlopen()s `library_path`, asks it for the OrtApi of the requested version and creates an OrtEnv.
sp_ort_runtime *sp_ort_runtime_open(const char *library_path, char *error, size_t error_capacity);
/// Releases the environment and unloads the library. NULL is allowed.
void sp_ort_runtime_close(sp_ort_runtime *runtime);
/// The library's own version string, e.g. "1.31.1".
const char *sp_ort_runtime_version(const sp_ort_runtime *runtime);

/// Loads the model at `model_path` on the CPU with `intra_op_threads` threads (0 = ORT's default).
sp_ort_session *sp_ort_session_open(sp_ort_runtime *runtime, const char *model_path, int intra_op_threads,
                                    char *error, size_t error_capacity);
/// Releases the session. NULL is allowed.
void sp_ort_session_close(sp_ort_session *session);

/// Number of model inputs (`is_output` = 0) or outputs (`is_output` = 1).
size_t sp_ort_session_io_count(const sp_ort_session *session, int is_output);

/// Describes input/output `index`: its name (copied into `name`), its element type
/// (ONNXTensorElementDataType; 1 = float32; 0 when it is not a tensor) and its shape
/// (-1 for a dynamic dimension; `rank` receives the full rank, at most `shape_capacity` values are written).
int sp_ort_session_io_info(const sp_ort_session *session, int is_output, size_t index,
                           char *name, size_t name_capacity, int32_t *element_type,
                           int64_t *shape, size_t shape_capacity, size_t *rank,
                           char *error, size_t error_capacity);

/// Runs the model on float32 inputs and fetches float32 outputs.
/// Inputs: `input_count` names, data pointers, shapes (concatenated) and ranks.
/// Outputs: for each of `output_count` names, `output_data[i]` receives a malloc()ed buffer
/// (release with sp_ort_free), and its shape goes into `output_shapes[i * max_output_rank ...]`
/// with its rank in `output_ranks[i]`.
int sp_ort_session_run(sp_ort_session *session,
                       const char *const *input_names, const float *const *input_data,
                       const int64_t *input_shapes, const size_t *input_ranks, size_t input_count,
                       const char *const *output_names, size_t output_count, size_t max_output_rank,
                       float **output_data, int64_t *output_shapes, size_t *output_ranks,
                       char *error, size_t error_capacity);

/// Frees a buffer returned by sp_ort_session_run.
void sp_ort_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif

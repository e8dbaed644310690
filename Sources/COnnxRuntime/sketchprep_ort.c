// ONNX Runtime through its versioned C API, loaded with dlopen (see include/sketchprep_ort.h).
#include "sketchprep_ort.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(char *error, size_t capacity, const char *format, ...) {
    if (error == NULL || capacity == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, capacity, format, arguments);
    va_end(arguments);
}

#include "ort_minimal_c_api.h"

struct sp_ort_runtime {
    void *library;
    const OrtApi *api;
    OrtEnv *env;
    const char *version;
};

struct sp_ort_session {
    sp_ort_runtime *runtime;
    OrtSession *session;
    OrtMemoryInfo *cpu_memory;
};

/// Moves an OrtStatus into `error` (prefixed with `what`) and releases it; returns 1 on failure.
static int failed(const OrtApi *api, OrtStatus *status, const char *what, char *error, size_t capacity) {
    if (status == NULL) return 0;
    set_error(error, capacity, "%s: %s", what, api->GetErrorMessage(status));
    api->ReleaseStatus(status);
    return 1;
}

uint32_t sp_ort_requested_api_version(void) { return SP_ORT_API_VERSION; }

sp_ort_runtime *sp_ort_runtime_open(const char *library_path, char *error, size_t error_capacity) {
    void *library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        set_error(error, error_capacity, "cannot load the ONNX Runtime library '%s': %s", library_path,
                  reason ? reason : "unknown dlopen error");
        return NULL;
    }
    typedef const OrtApiBase *(*GetApiBase)(void);
    GetApiBase get_api_base = (GetApiBase)dlsym(library, "OrtGetApiBase");
    if (get_api_base == NULL) {
        set_error(error, error_capacity, "'%s' is not an ONNX Runtime library (no OrtGetApiBase symbol)", library_path);
        dlclose(library);
        return NULL;
    }
    const OrtApiBase *base = get_api_base();
    const OrtApi *api = base->GetApi(SP_ORT_API_VERSION);
    if (api == NULL) {
        set_error(error, error_capacity, "ONNX Runtime %s at '%s' does not provide C API version %u (too old)",
                  base->GetVersionString(), library_path, (unsigned)SP_ORT_API_VERSION);
        dlclose(library);
        return NULL;
    }
    OrtEnv *env = NULL;
    if (failed(api, api->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "sketchprep", &env), "cannot create the ONNX Runtime environment",
               error, error_capacity)) {
        dlclose(library);
        return NULL;
    }
    sp_ort_runtime *runtime = calloc(1, sizeof *runtime);
    if (runtime == NULL) {
        api->ReleaseEnv(env);
        dlclose(library);
        set_error(error, error_capacity, "out of memory");
        return NULL;
    }
    runtime->library = library;
    runtime->api = api;
    runtime->env = env;
    runtime->version = base->GetVersionString();
    return runtime;
}

void sp_ort_runtime_close(sp_ort_runtime *runtime) {
    if (runtime == NULL) return;
    runtime->api->ReleaseEnv(runtime->env);
    dlclose(runtime->library);
    free(runtime);
}

const char *sp_ort_runtime_version(const sp_ort_runtime *runtime) { return runtime->version; }

sp_ort_session *sp_ort_session_open(sp_ort_runtime *runtime, const char *model_path, int intra_op_threads,
                                    char *error, size_t error_capacity) {
    const OrtApi *api = runtime->api;
    OrtSessionOptions *options = NULL;
    if (failed(api, api->CreateSessionOptions(&options), "cannot create session options", error, error_capacity)) return NULL;
    OrtSession *session = NULL;
    OrtMemoryInfo *memory = NULL;
    int bad = failed(api, api->SetIntraOpNumThreads(options, intra_op_threads), "cannot set the thread count", error, error_capacity)
           || failed(api, api->SetInterOpNumThreads(options, 1), "cannot set the thread count", error, error_capacity)
           || failed(api, api->CreateSession(runtime->env, model_path, options, &session), "cannot load the model", error, error_capacity)
           || failed(api, api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &memory), "cannot describe CPU memory",
                     error, error_capacity);
    api->ReleaseSessionOptions(options);
    sp_ort_session *result = bad ? NULL : calloc(1, sizeof *result);
    if (result == NULL) {
        if (!bad) set_error(error, error_capacity, "out of memory");
        if (session) api->ReleaseSession(session);
        if (memory) api->ReleaseMemoryInfo(memory);
        return NULL;
    }
    result->runtime = runtime;
    result->session = session;
    result->cpu_memory = memory;
    return result;
}

void sp_ort_session_close(sp_ort_session *session) {
    if (session == NULL) return;
    session->runtime->api->ReleaseMemoryInfo(session->cpu_memory);
    session->runtime->api->ReleaseSession(session->session);
    free(session);
}

size_t sp_ort_session_io_count(const sp_ort_session *session, int is_output) {
    const OrtApi *api = session->runtime->api;
    size_t count = 0;
    OrtStatus *status = is_output ? api->SessionGetOutputCount(session->session, &count)
                                  : api->SessionGetInputCount(session->session, &count);
    if (status != NULL) {
        api->ReleaseStatus(status);
        return 0;
    }
    return count;
}

int sp_ort_session_io_info(const sp_ort_session *session, int is_output, size_t index,
                           char *name, size_t name_capacity, int32_t *element_type,
                           int64_t *shape, size_t shape_capacity, size_t *rank,
                           char *error, size_t error_capacity) {
    const OrtApi *api = session->runtime->api;
    OrtAllocator *allocator = NULL;
    if (failed(api, api->GetAllocatorWithDefaultOptions(&allocator), "no default allocator", error, error_capacity)) return 1;
    char *ort_name = NULL;
    OrtStatus *status = is_output ? api->SessionGetOutputName(session->session, index, allocator, &ort_name)
                                  : api->SessionGetInputName(session->session, index, allocator, &ort_name);
    if (failed(api, status, "cannot read the input/output name", error, error_capacity)) return 1;
    snprintf(name, name_capacity, "%s", ort_name);
    if (failed(api, api->AllocatorFree(allocator, ort_name), "cannot free the name", error, error_capacity)) return 1;

    OrtTypeInfo *type_info = NULL;
    status = is_output ? api->SessionGetOutputTypeInfo(session->session, index, &type_info)
                       : api->SessionGetInputTypeInfo(session->session, index, &type_info);
    if (failed(api, status, "cannot read the input/output type", error, error_capacity)) return 1;
    const OrtTensorTypeAndShapeInfo *tensor_info = NULL;
    *element_type = 0;
    *rank = 0;
    int bad = failed(api, api->CastTypeInfoToTensorInfo(type_info, &tensor_info), "cannot read the tensor type", error, error_capacity);
    if (!bad && tensor_info != NULL) {
        enum ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
        size_t count = 0;
        bad = failed(api, api->GetTensorElementType(tensor_info, &type), "cannot read the element type", error, error_capacity)
           || failed(api, api->GetDimensionsCount(tensor_info, &count), "cannot read the rank", error, error_capacity);
        if (!bad) {
            int64_t *dims = calloc(count ? count : 1, sizeof *dims);
            bad = dims == NULL || failed(api, api->GetDimensions(tensor_info, dims, count), "cannot read the shape", error, error_capacity);
            if (!bad) {
                for (size_t i = 0; i < count && i < shape_capacity; i++) shape[i] = dims[i];
                *rank = count;
                *element_type = (int32_t)type;
            }
            free(dims);
        }
    }
    api->ReleaseTypeInfo(type_info);
    return bad;
}

int sp_ort_session_run(sp_ort_session *session,
                       const char *const *input_names, const float *const *input_data,
                       const int64_t *input_shapes, const size_t *input_ranks, size_t input_count,
                       const char *const *output_names, size_t output_count, size_t max_output_rank,
                       float **output_data, int64_t *output_shapes, size_t *output_ranks,
                       char *error, size_t error_capacity) {
    const OrtApi *api = session->runtime->api;
    OrtValue **inputs = calloc(input_count ? input_count : 1, sizeof *inputs);
    OrtValue **outputs = calloc(output_count ? output_count : 1, sizeof *outputs);
    int bad = inputs == NULL || outputs == NULL;
    if (bad) set_error(error, error_capacity, "out of memory");
    for (size_t i = 0; i < output_count; i++) output_data[i] = NULL;

    const int64_t *shape = input_shapes;
    for (size_t i = 0; i < input_count && !bad; i++) {
        size_t elements = 1;
        for (size_t d = 0; d < input_ranks[i]; d++) elements *= (size_t)shape[d];
        bad = failed(api, api->CreateTensorWithDataAsOrtValue(session->cpu_memory, (void *)input_data[i], elements * sizeof(float),
                                                               shape, input_ranks[i], ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT, &inputs[i]),
                     "cannot wrap the input tensor", error, error_capacity);
        shape += input_ranks[i];
    }
    if (!bad) {
        bad = failed(api, api->Run(session->session, NULL, input_names, (const OrtValue *const *)inputs, input_count,
                                   output_names, output_count, outputs),
                     "inference failed", error, error_capacity);
    }
    for (size_t i = 0; i < output_count && !bad; i++) {
        OrtTensorTypeAndShapeInfo *info = NULL;
        if (failed(api, api->GetTensorTypeAndShape(outputs[i], &info), "cannot read the output shape", error, error_capacity)) {
            bad = 1;
            break;
        }
        enum ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
        size_t rank = 0, elements = 0;
        bad = failed(api, api->GetTensorElementType(info, &type), "cannot read the output type", error, error_capacity)
           || failed(api, api->GetDimensionsCount(info, &rank), "cannot read the output rank", error, error_capacity)
           || failed(api, api->GetTensorShapeElementCount(info, &elements), "cannot read the output size", error, error_capacity);
        if (!bad && type != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) {
            set_error(error, error_capacity, "output '%s' is not float32 (ONNX element type %d)", output_names[i], (int)type);
            bad = 1;
        }
        if (!bad && rank > max_output_rank) {
            set_error(error, error_capacity, "output '%s' has rank %zu (at most %zu supported)", output_names[i], rank, max_output_rank);
            bad = 1;
        }
        if (!bad) {
            bad = failed(api, api->GetDimensions(info, output_shapes + i * max_output_rank, rank), "cannot read the output shape",
                         error, error_capacity);
            output_ranks[i] = rank;
        }
        api->ReleaseTensorTypeAndShapeInfo(info);
        float *data = NULL;
        if (!bad) bad = failed(api, api->GetTensorMutableData(outputs[i], (void **)&data), "cannot read the output", error, error_capacity);
        if (!bad) {
            output_data[i] = malloc(elements ? elements * sizeof(float) : 1);
            if (output_data[i] == NULL) {
                set_error(error, error_capacity, "out of memory");
                bad = 1;
            } else {
                memcpy(output_data[i], data, elements * sizeof(float));
            }
        }
    }
    for (size_t i = 0; inputs != NULL && i < input_count; i++) if (inputs[i]) api->ReleaseValue(inputs[i]);
    for (size_t i = 0; outputs != NULL && i < output_count; i++) if (outputs[i]) api->ReleaseValue(outputs[i]);
    free(inputs);
    free(outputs);
    if (bad) {
        for (size_t i = 0; i < output_count; i++) {
            free(output_data[i]);
            output_data[i] = NULL;
        }
    }
    return bad;
}


void sp_ort_free(void *buffer) { free(buffer); }

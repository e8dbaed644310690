// The part of ONNX Runtime's C API (onnxruntime_c_api.h, Copyright (c) Microsoft Corporation, MIT
// License) that sketchprep_ort.c calls: the opaque types, the enum values it uses, OrtApiBase, and
// OrtApi's function pointers in their published order up to the last one called (100), the others
// as placeholders of the same size. The OrtApi table only ever grows at its end, so these offsets
// hold for every library version; SP_ORT_API_VERSION asks for the first version, which every
// library serves. Derived from Debian trixie's libonnxruntime-dev header (ORT_API_VERSION 21);
// regenerate by comparing with a newer header if more functions are needed.
#ifndef SKETCHPREP_ORT_MINIMAL_C_API_H
#define SKETCHPREP_ORT_MINIMAL_C_API_H

#include <stddef.h>
#include <stdint.h>

#define SP_ORT_API_VERSION 1

typedef struct OrtEnv OrtEnv;
typedef struct OrtStatus OrtStatus;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtSession OrtSession;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtTypeInfo OrtTypeInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtAllocator OrtAllocator;

typedef enum ONNXTensorElementDataType {
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED = 0,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT = 1,
} ONNXTensorElementDataType;

typedef enum OrtLoggingLevel {
    ORT_LOGGING_LEVEL_WARNING = 2,
} OrtLoggingLevel;

typedef enum OrtAllocatorType {
    OrtArenaAllocator = 1,
} OrtAllocatorType;

typedef enum OrtMemType {
    OrtMemTypeDefault = 0,
} OrtMemType;

typedef struct OrtApi {
    void (*unused_0)(void);  // CreateStatus
    void (*unused_1)(void);  // GetErrorCode
    const char*(* GetErrorMessage)(const OrtStatus* status);  // 2
    OrtStatus *(*CreateEnv)(OrtLoggingLevel log_severity_level, const char* logid, OrtEnv** out);  // 3
    void (*unused_4)(void);  // CreateEnvWithCustomLogger
    void (*unused_5)(void);  // EnableTelemetryEvents
    void (*unused_6)(void);  // DisableTelemetryEvents
    OrtStatus *(*CreateSession)(const OrtEnv* env, const char* model_path, const OrtSessionOptions* options, OrtSession** out);  // 7
    void (*unused_8)(void);  // CreateSessionFromArray
    OrtStatus *(*Run)(OrtSession* session, const OrtRunOptions* run_options, const char* const* input_names, const OrtValue* const* inputs, size_t input_len, const char* const* output_names, size_t output_names_len, OrtValue** outputs);  // 9
    OrtStatus *(*CreateSessionOptions)(OrtSessionOptions** options);  // 10
    void (*unused_11)(void);  // SetOptimizedModelFilePath
    void (*unused_12)(void);  // CloneSessionOptions
    void (*unused_13)(void);  // SetSessionExecutionMode
    void (*unused_14)(void);  // EnableProfiling
    void (*unused_15)(void);  // DisableProfiling
    void (*unused_16)(void);  // EnableMemPattern
    void (*unused_17)(void);  // DisableMemPattern
    void (*unused_18)(void);  // EnableCpuMemArena
    void (*unused_19)(void);  // DisableCpuMemArena
    void (*unused_20)(void);  // SetSessionLogId
    void (*unused_21)(void);  // SetSessionLogVerbosityLevel
    void (*unused_22)(void);  // SetSessionLogSeverityLevel
    void (*unused_23)(void);  // SetSessionGraphOptimizationLevel
    OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions* options, int intra_op_num_threads);  // 24
    OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions* options, int inter_op_num_threads);  // 25
    void (*unused_26)(void);  // CreateCustomOpDomain
    void (*unused_27)(void);  // CustomOpDomain_Add
    void (*unused_28)(void);  // AddCustomOpDomain
    void (*unused_29)(void);  // RegisterCustomOpsLibrary
    OrtStatus *(*SessionGetInputCount)(const OrtSession* session, size_t* out);  // 30
    OrtStatus *(*SessionGetOutputCount)(const OrtSession* session, size_t* out);  // 31
    void (*unused_32)(void);  // SessionGetOverridableInitializerCount
    OrtStatus *(*SessionGetInputTypeInfo)(const OrtSession* session, size_t index, OrtTypeInfo** type_info);  // 33
    OrtStatus *(*SessionGetOutputTypeInfo)(const OrtSession* session, size_t index, OrtTypeInfo** type_info);  // 34
    void (*unused_35)(void);  // SessionGetOverridableInitializerTypeInfo
    OrtStatus *(*SessionGetInputName)(const OrtSession* session, size_t index, OrtAllocator* allocator, char** value);  // 36
    OrtStatus *(*SessionGetOutputName)(const OrtSession* session, size_t index, OrtAllocator* allocator, char** value);  // 37
    void (*unused_38)(void);  // SessionGetOverridableInitializerName
    void (*unused_39)(void);  // CreateRunOptions
    void (*unused_40)(void);  // RunOptionsSetRunLogVerbosityLevel
    void (*unused_41)(void);  // RunOptionsSetRunLogSeverityLevel
    void (*unused_42)(void);  // RunOptionsSetRunTag
    void (*unused_43)(void);  // RunOptionsGetRunLogVerbosityLevel
    void (*unused_44)(void);  // RunOptionsGetRunLogSeverityLevel
    void (*unused_45)(void);  // RunOptionsGetRunTag
    void (*unused_46)(void);  // RunOptionsSetTerminate
    void (*unused_47)(void);  // RunOptionsUnsetTerminate
    void (*unused_48)(void);  // CreateTensorAsOrtValue
    OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo* info, void* p_data, size_t p_data_len, const int64_t* shape, size_t shape_len, ONNXTensorElementDataType type, OrtValue** out);  // 49
    void (*unused_50)(void);  // IsTensor
    OrtStatus *(*GetTensorMutableData)(OrtValue* value, void** out);  // 51
    void (*unused_52)(void);  // FillStringTensor
    void (*unused_53)(void);  // GetStringTensorDataLength
    void (*unused_54)(void);  // GetStringTensorContent
    OrtStatus *(*CastTypeInfoToTensorInfo)(const OrtTypeInfo* type_info, const OrtTensorTypeAndShapeInfo** out);  // 55
    void (*unused_56)(void);  // GetOnnxTypeFromTypeInfo
    void (*unused_57)(void);  // CreateTensorTypeAndShapeInfo
    void (*unused_58)(void);  // SetTensorElementType
    void (*unused_59)(void);  // SetDimensions
    OrtStatus *(*GetTensorElementType)(const OrtTensorTypeAndShapeInfo* info, enum ONNXTensorElementDataType* out);  // 60
    OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo* info, size_t* out);  // 61
    OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo* info, int64_t* dim_values, size_t dim_values_length);  // 62
    void (*unused_63)(void);  // GetSymbolicDimensions
    OrtStatus *(*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo* info, size_t* out);  // 64
    OrtStatus *(*GetTensorTypeAndShape)(const OrtValue* value, OrtTensorTypeAndShapeInfo** out);  // 65
    void (*unused_66)(void);  // GetTypeInfo
    void (*unused_67)(void);  // GetValueType
    void (*unused_68)(void);  // CreateMemoryInfo
    OrtStatus *(*CreateCpuMemoryInfo)(enum OrtAllocatorType type, enum OrtMemType mem_type, OrtMemoryInfo** out);  // 69
    void (*unused_70)(void);  // CompareMemoryInfo
    void (*unused_71)(void);  // MemoryInfoGetName
    void (*unused_72)(void);  // MemoryInfoGetId
    void (*unused_73)(void);  // MemoryInfoGetMemType
    void (*unused_74)(void);  // MemoryInfoGetType
    void (*unused_75)(void);  // AllocatorAlloc
    OrtStatus *(*AllocatorFree)(OrtAllocator* ort_allocator, void* p);  // 76
    void (*unused_77)(void);  // AllocatorGetInfo
    OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator** out);  // 78
    void (*unused_79)(void);  // AddFreeDimensionOverride
    void (*unused_80)(void);  // GetValue
    void (*unused_81)(void);  // GetValueCount
    void (*unused_82)(void);  // CreateValue
    void (*unused_83)(void);  // CreateOpaqueValue
    void (*unused_84)(void);  // GetOpaqueValue
    void (*unused_85)(void);  // KernelInfoGetAttribute_float
    void (*unused_86)(void);  // KernelInfoGetAttribute_int64
    void (*unused_87)(void);  // KernelInfoGetAttribute_string
    void (*unused_88)(void);  // KernelContext_GetInputCount
    void (*unused_89)(void);  // KernelContext_GetOutputCount
    void (*unused_90)(void);  // KernelContext_GetInput
    void (*unused_91)(void);  // KernelContext_GetOutput
    void (*ReleaseEnv)(OrtEnv *input);  // 92
    void (*ReleaseStatus)(OrtStatus *input);  // 93
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *input);  // 94
    void (*ReleaseSession)(OrtSession *input);  // 95
    void (*ReleaseValue)(OrtValue *input);  // 96
    void (*unused_97)(void);  // ReleaseRunOptions
    void (*ReleaseTypeInfo)(OrtTypeInfo *input);  // 98
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *input);  // 99
    void (*ReleaseSessionOptions)(OrtSessionOptions *input);  // 100
} OrtApi;

typedef struct OrtApiBase {
    const OrtApi *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

#endif

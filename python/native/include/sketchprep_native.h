/* The C ABI of the Python package's native library (libSketchPrepNative.so, the SwiftPM product
 * SketchPrepNative built from python/native). Every function below is a Swift `@_cdecl` function of
 * python/native; this header is their one declaration: Tests/python/package/test_native_abi.py checks
 * that each has a `@_cdecl` of the same name and that python/sketchprep/_native.py gives ctypes the
 * same argument and result types, in the same order (all but the launcher's sketchprep_cli_main, the
 * one entry point Python does not call).
 *
 * Batch calls take drawings in the StrokeBatch layout (x, y, stride, point count, stroke offsets,
 * stroke count, drawing offsets, drawing count), write their sizes to `sizes` (points, strokes,
 * drawings, refused drawings, 1 when the whole call was refused) and return a result that
 * sketchprep_result_* read and sketchprep_result_free frees. Nothing traps on the caller's values. */
#ifndef SKETCHPREP_NATIVE_H
#define SKETCHPREP_NATIVE_H

#include <stdint.h>

/* Google's simplification of every drawing of the batch (sketchprep simplify's rule). */
void *sketchprep_simplify(const double *x, const double *y, int64_t stride, int64_t point_count,
                          const int64_t *stroke_offsets, int64_t stroke_count, const int64_t *drawing_offsets,
                          int64_t drawing_count, double epsilon, double resample_step, double scale_target,
                          int64_t *sizes);

/* Stroke tensors (drawing_count x length x 3 float32) of simplified drawings into `output`. */
void *sketchprep_encode(const double *x, const double *y, int64_t stride, int64_t point_count,
                        const int64_t *stroke_offsets, int64_t stroke_count, const int64_t *drawing_offsets,
                        int64_t drawing_count, int64_t length, int32_t padding_front, int32_t truncation_back,
                        float *output, int64_t *sizes);

/* Rasters of the batch into `output` (drawing_count x side x side x channel count uint8): Google's
 * renderer with its options (sketchprep bitmap), or the time channels named in `channels` (comma
 * separated, NULL or "" for none; `t` then holds each point's time at the same stride). `input_format`
 * is sketchprep's --input-format (auto, raw, simplified); `polarity` white-on-black or black-on-white. */
void *sketchprep_render(const double *x, const double *y, const double *t, int64_t stride, int64_t point_count,
                        const int64_t *stroke_offsets, int64_t stroke_count, const int64_t *drawing_offsets,
                        int64_t drawing_count, int64_t side, double line_width, double padding,
                        const char *polarity, const char *channels, const char *input_format, uint8_t *output,
                        int64_t *sizes);

/* Starts reading the `path_count` NUL-terminated paths packed in `paths` the way every command
 * reads them (DrawingSource: `format` NULL or "" for detection by content, `word` for .bin; the
 * engine's batches decoded on `jobs` worker threads, 0 for the CPUs this process may use) from a
 * thread of the library's own, in batches of at most `batch_records` drawings and rejected lines
 * together, one batch ahead of the caller. Never NULL (refused arguments give a reader
 * that is over at once, with its message); free with sketchprep_reader_free. */
void *sketchprep_reader_open(const char *paths, int64_t path_count, const char *format, const char *word,
                             int32_t keep_times, int64_t batch_records, int64_t jobs);

/* Waits for the reader's next batch and writes the element count of each of its 11 arrays to
 * `counts`: 0 x, 1 y of every point (float64 each), 2 t (float64 per point, 0 where absent; no
 * element when no stroke of the batch has times), 3 stroke offsets (int64, strokes + 1), 4 drawing
 * offsets (int64, drawings + 1), 5 recognized (uint8 per drawing), 6 timed (uint8 per drawing:
 * every stroke has times), 7 text (UTF-8: word, key_id, countrycode, timestamp of each drawing),
 * 8 text offsets (int64, 4 x drawings + 1), 9 rejected (UTF-8: file, line, reason of each rejected
 * line), 10 rejected offsets (int64, 3 x rejected lines + 1). Returns 1, or 0 when the read is over. */
int32_t sketchprep_reader_next(void *reader, int64_t *counts);

/* Copies the arrays of the batch sketchprep_reader_next gave into the 11 buffers at `destinations`
 * (each sized from its count; a NULL one is skipped). */
void sketchprep_reader_copy(void *reader, void *const *destinations);

/* Why the read failed (a missing input, no readable input), once sketchprep_reader_next returned
 * 0; NULL when it did not. */
const char *sketchprep_reader_message(void *reader);

/* Stops the read at its thread's next batch, waits for the thread and frees the reader. */
void sketchprep_reader_free(void *reader);

/* The dataset's manifest.json, read as every command reads it (regular file inside `directory`,
 * size cap, decoded, every count and shard name in range): its bytes (sizes[0]) for
 * sketchprep_result_bytes, or the message of why it is refused. */
void *sketchprep_manifest_read(const char *directory, int64_t *sizes);

/* Checks the manifest's shard `index` as sketchprep verify does (a regular file inside the
 * directory with the recorded size, and the recorded SHA-256 when `hash` is non-zero): NULL when it
 * passes, else the problem; free with sketchprep_result_free. */
void *sketchprep_manifest_check_shard(const char *directory, int64_t index, int32_t hash, int64_t *sizes);

/* A named cap of the readers (docs/limits.md), or -1 for an unknown name. */
int64_t sketchprep_limit(const char *name);

/* Copies a result's simplified strokes into arrays of the reported sizes. */
void sketchprep_result_copy(void *result, int32_t *points, int64_t *stroke_offsets, int64_t *drawing_offsets);

/* A result's bytes (sizes[0] of them; sketchprep_manifest_read), valid until the result is freed. */
const uint8_t *sketchprep_result_bytes(void *result);

/* Why the whole call was refused, or NULL. */
const char *sketchprep_result_message(void *result);

/* The batch index and reason of refused drawing `number`. */
int64_t sketchprep_result_failure_index(void *result, int64_t number);
const char *sketchprep_result_failure_reason(void *result, int64_t number);

/* Frees a result. */
void sketchprep_result_free(void *result);

/* Google's simplification of one marshalled drawing with a thread's workspace; -1 when declined. */
int64_t sketchprep_simplify_marshalled(const char *data, int64_t count, double epsilon, double resample_step,
                                       double scale_target, void *workspace, void *output, int64_t capacity);
void *sketchprep_workspace_new(void);
void sketchprep_workspace_free(void *workspace);

/* The SketchPrep version the library was built from. */
const char *sketchprep_version(void);

/* The launcher's entry point, not Python's (python/launcher/sketchprep.c calls it from main; ctypes
 * never does): runs the sketchprep CLI on the process's arguments. Returns 0 when the command
 * succeeded; otherwise the process has exited with the command's status. */
int32_t sketchprep_cli_main(void);

#endif

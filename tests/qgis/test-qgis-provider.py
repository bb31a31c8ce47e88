# SPDX-License-Identifier: GPL-3.0-or-later
"""The QGIS Processing provider (qgis/shepard) end to end, with Debian 12's QGIS 3.22 (TAP).

Installs the plugin with tools/install-qgis-plugin.sh into a temporary QGIS profile and home (the user's profile is
never touched), runs its algorithms through qgis_process and in PyQGIS, and compares what they write with what
shepard-grid and shepard-cv write when run directly. Usage: test-qgis-provider.py SHEPARD_GRID SHEPARD_CV"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

import numpy
from osgeo import gdal, ogr, osr

gdal.UseExceptions()

GRID_TOOL, CV_TOOL = (os.path.abspath(path) for path in sys.argv[1:3])
TOOLS_FOLDER = os.path.dirname(GRID_TOOL)
SOURCE_ROOT = os.environ.get("SHEPARD_SOURCE_ROOT") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
SCRATCH = tempfile.mkdtemp(prefix="shepard-qgis-test-")
POINTS = os.path.join(SCRATCH, "meuse.gpkg")
# The run tests give the layer by name, as QGIS writes a layer of a GeoPackage.
POINTS_LAYER = POINTS + "|layername=samples"


def _isolate_qgis():
    """Points QGIS's profile, settings and caches into SCRATCH, for qgis_process and this process alike."""
    home = os.path.join(SCRATCH, "home")
    runtime = os.path.join(SCRATCH, "runtime")
    os.makedirs(home)
    os.makedirs(runtime, mode=0o700)
    os.environ.update({
        "HOME": home,
        "QGIS_CUSTOM_CONFIG_PATH": os.path.join(SCRATCH, "qgis-config"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_RUNTIME_DIR": runtime,
        "QT_QPA_PLATFORM": "offscreen",
    })


def _path_without_tools():
    """PATH without any folder that holds a shepard-grid, so that only the provider's setting can find one."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(folder for folder in folders
                           if folder and not os.path.exists(os.path.join(folder, "shepard-grid")))


PATH_WITHOUT_TOOLS = None
PATH_WITH_TOOLS = None


def _qgis_process_command():
    """qgis_process, or on Debian 12 the program behind its wrapper, which passes an option it refuses
    (qgis/QGIS#57683); None when neither runs."""
    for command in ("qgis_process", "qgis_process.bin"):
        if shutil.which(command) is None:
            continue
        if subprocess.run([command, "--version"], capture_output=True).returncode == 0:
            return command
    return None


QGIS_PROCESS = None


def qgis_process(*arguments, path):
    return subprocess.run([QGIS_PROCESS, *arguments], capture_output=True, text=True,
                          env=dict(os.environ, PATH=path))


def run_algorithm(algorithm, parameters, path=None):
    """Runs ALGORITHM through qgis_process with PARAMETERS (a dict); returns the completed process."""
    arguments = ["{}={}".format(name, value) for name, value in parameters.items()]
    return qgis_process("--json", "run", algorithm, "--", *arguments, path=path or PATH_WITH_TOOLS)


def results_of(process):
    assert process.returncode == 0, "qgis_process failed ({}):\n{}\n{}".format(process.returncode, process.stdout,
                                                                             process.stderr)
    return json.loads(process.stdout)["results"]


def run_tool(tool, *arguments):
    process = subprocess.run([tool, *arguments], capture_output=True, text=True)
    assert process.returncode == 0, "{} failed: {}".format(tool, process.stderr)
    return process.stdout


def read_raster(path):
    dataset = gdal.Open(path)
    bands = [dataset.GetRasterBand(index + 1) for index in range(dataset.RasterCount)]
    srs = osr.SpatialReference(wkt=dataset.GetProjection())
    srs.AutoIdentifyEPSG()
    return {
        "size": (dataset.RasterXSize, dataset.RasterYSize),
        "geotransform": dataset.GetGeoTransform(),
        "epsg": srs.GetAuthorityCode(None),
        "nodata": [band.GetNoDataValue() for band in bands],
        "descriptions": [band.GetDescription() for band in bands],
        "values": [band.ReadAsArray() for band in bands],
        "types": [gdal.GetDataTypeName(band.DataType) for band in bands],
    }


def assert_same_raster(path, expected_path):
    """The raster at PATH equals the one at EXPECTED_PATH: size, geotransform, CRS, nodata, every value (float32)."""
    raster, expected = read_raster(path), read_raster(expected_path)
    for key in ("size", "geotransform", "epsg", "nodata", "descriptions", "types"):
        assert raster[key] == expected[key], "{}: {} instead of {}".format(key, raster[key], expected[key])
    for band, (values, expected_values) in enumerate(zip(raster["values"], expected["values"]), start=1):
        assert values.dtype == numpy.float32, "band {} is {}".format(band, values.dtype)
        assert numpy.array_equal(values, expected_values), "band {} differs in {} cells".format(
            band, int(numpy.count_nonzero(values != expected_values)))
    assert raster["epsg"] == "28992", "the raster's CRS is EPSG:{}, not the layer's 28992".format(raster["epsg"])
    return raster


def scratch_path(name):
    return os.path.join(SCRATCH, name)


def install_plugin(*arguments):
    process = subprocess.run([os.path.join(SOURCE_ROOT, "tools", "install-qgis-plugin.sh"), *arguments],
                             capture_output=True, text=True)
    assert process.returncode == 0, "install-qgis-plugin.sh failed:\n{}\n{}".format(process.stdout, process.stderr)


def make_points():
    source = gdal.OpenEx(os.path.join(SOURCE_ROOT, "data", "meuse.csv"), gdal.OF_VECTOR,
                         open_options=["X_POSSIBLE_NAMES=x", "Y_POSSIBLE_NAMES=y", "AUTODETECT_TYPE=YES"])
    gdal.VectorTranslate(POINTS, source, options="-f GPKG -nln samples -a_srs EPSG:28992")


# The cases, in order: each may rely on the plugin installed by the first.

def test_install_command_enables_the_plugin():
    install_plugin()
    plugins = qgis_process("plugins", path=PATH_WITHOUT_TOOLS).stdout
    assert any(line.split() == ["*", "shepard"] for line in plugins.splitlines()), plugins
    listing = qgis_process("list", path=PATH_WITHOUT_TOOLS).stdout
    for algorithm in ("shepard:idw", "shepard:adaptiveidw", "shepard:crossvalidation"):
        assert algorithm in listing, "{} is not listed:\n{}".format(algorithm, listing)


def test_missing_tools_are_named():
    output = scratch_path("no-tools.tif")
    process = run_algorithm("shepard:adaptiveidw", {"INPUT": POINTS_LAYER, "FIELD": "zinc", "OUTPUT": output},
                            path=PATH_WITHOUT_TOOLS)
    assert process.returncode != 0, process.stdout
    message = "shepard-grid was not found: install Shepard or set the Shepard folder in Processing options"
    assert message in process.stdout + process.stderr, process.stdout + process.stderr
    assert not os.path.exists(output)


def test_adaptive_idw_equals_shepard_grid():
    output, expected = scratch_path("qgis-aidw.tif"), scratch_path("direct-aidw.tif")
    results_of(run_algorithm("shepard:adaptiveidw", {
        "INPUT": POINTS_LAYER, "FIELD": "zinc", "K": 10, "ALPHA1": 1, "ALPHA5": 4,
        "EXTENT": "178500,181500,329600,333700 [EPSG:28992]", "CELL_SIZE": 25, "OUTPUT": output}))
    run_tool(GRID_TOOL, "-q", "-l", "samples", "-zfield", "zinc", "-a", "aidw:k=10:alpha=1,2,2.5,3,4",
             "-txe", "178500", "181500", "-tye", "329600", "333700", "-tr", "25", "25", POINTS, expected)
    raster = assert_same_raster(output, expected)
    assert raster["size"] == (120, 164), raster["size"]
    assert raster["geotransform"] == (178500.0, 25.0, 0.0, 333700.0, 0.0, -25.0), raster["geotransform"]


def test_idw_equals_shepard_grid():
    output, expected = scratch_path("qgis-idw.tif"), scratch_path("direct-idw.tif")
    results_of(run_algorithm("shepard:idw", {"INPUT": POINTS_LAYER, "FIELD": "lead", "POWER": 3, "WIDTH": 80,
                                             "HEIGHT": 100, "OUTPUT": output}))
    run_tool(GRID_TOOL, "-q", "-zfield", "lead", "-a", "idw:power=3", "-outsize", "80", "100", POINTS, expected)
    raster = assert_same_raster(output, expected)
    assert raster["size"] == (80, 100), raster["size"]


def test_wrong_field_fails_with_the_tools_message():
    output = scratch_path("wrong-field.tif")
    process = run_algorithm("shepard:adaptiveidw", {"INPUT": POINTS_LAYER, "FIELD": "zinkk", "OUTPUT": output})
    assert process.returncode != 0, process.stdout
    direct = subprocess.run([GRID_TOOL, "-zfield", "zinkk", POINTS, scratch_path("direct-wrong-field.tif")],
                            capture_output=True, text=True)
    assert direct.returncode != 0
    messages = [line for line in direct.stderr.splitlines() if line.startswith("shepard-grid: ")]
    assert len(messages) == 1 and "zinkk" in messages[0], direct.stderr
    message = messages[0][len("shepard-grid: "):]
    assert message in process.stdout + process.stderr, "not in qgis_process's output: {}\n{}\n{}".format(
        message, process.stdout, process.stderr)
    assert not os.path.exists(output)


def test_cross_validation_equals_shepard_cv():
    residuals = scratch_path("residuals.gpkg")
    results = results_of(run_algorithm("shepard:crossvalidation", {
        "INPUT": POINTS_LAYER, "FIELD": "zinc", "METHOD": 1, "K": 10, "FOLDS": 5, "SEED": 42,
        "RESIDUALS": residuals}))
    expected = json.loads(run_tool(CV_TOOL, "-q", "-zfield", "zinc", "-a", "aidw:k=10", "--folds", "5", "--seed",
                                   "42", "--json", POINTS))
    for output, key in (("N", "n"), ("ME", "me"), ("MAE", "mae"), ("RMSE", "rmse"), ("R2", "r2")):
        assert results[output] == expected[key], "{}: {} instead of {}".format(output, results[output],
                                                                               expected[key])
    assert results["RESIDUALS"] == residuals
    dataset = ogr.Open(residuals)  # kept: its layer dies with it
    layer = dataset.GetLayer(0)
    assert layer.GetFeatureCount() == 155, layer.GetFeatureCount()
    fields = {layer.GetLayerDefn().GetFieldDefn(i).GetName() for i in range(layer.GetLayerDefn().GetFieldCount())}
    assert {"observed", "predicted", "residual", "alpha", "fold"} <= fields, fields
    folds = {feature.GetField("fold") for feature in layer}
    assert len(folds) == 5, folds
    # Cross-validation writes no raster: it offers no Nodata value (shepard-cv refuses nodata=).
    described = qgis_process("help", "shepard:crossvalidation", path=PATH_WITH_TOOLS).stdout
    assert "NODATA" not in described and "RADIUS" in described, described


def test_shepard_folder_setting():
    install_plugin("--tools-folder", TOOLS_FOLDER)
    output = scratch_path("through-setting.tif")
    results_of(run_algorithm("shepard:idw", {"INPUT": POINTS_LAYER, "FIELD": "zinc", "WIDTH": 30, "HEIGHT": 40,
                                             "OUTPUT": output}, path=PATH_WITHOUT_TOOLS))
    assert read_raster(output)["size"] == (30, 40)

    empty = scratch_path("empty-folder")
    os.makedirs(empty)
    install_plugin("--tools-folder", empty)
    process = run_algorithm("shepard:idw", {"INPUT": POINTS_LAYER, "FIELD": "zinc",
                                            "OUTPUT": scratch_path("no-tools-in-folder.tif")})
    assert process.returncode != 0
    assert "shepard-grid was not found in the Shepard folder " + empty in process.stdout + process.stderr, \
        process.stdout + process.stderr
    # A reinstall keeps the setting: clear it, back to PATH, for the cases that follow.
    install_plugin("--tools-folder", "")


def test_neighbourhood_masks_tap_and_fields_equal_shepard_grid():
    output, expected = scratch_path("qgis-options.tif"), scratch_path("direct-options.tif")
    results_of(run_algorithm("shepard:idw", {
        "INPUT": POINTS_LAYER, "FIELD": "zinc;lead", "POWER": 2.5, "RADIUS": 400, "MAX_POINTS": 12,
        "MIN_POINTS": 3, "SMOOTHING": 5, "MAX_POINTS_PER_QUADRANT": 4, "MIN_POINTS_PER_QUADRANT": 1, "NODATA": -1,
        "MASK_DISTANCE": 300, "MASK_HULL": "true", "CELL_SIZE": 40, "TAP": "true", "OUTPUT": output}))
    run_tool(GRID_TOOL, "-q", "-zfield", "zinc,lead", "-a",
             "idw:power=2.5:radius=400:max_points=12:min_points=3:smoothing=5:max_points_per_quadrant=4:"
             "min_points_per_quadrant=1:nodata=-1", "--mask-distance", "300", "--mask-hull", "-tr", "40", "40",
             "-tap", POINTS, expected)
    raster = assert_same_raster(output, expected)
    assert raster["descriptions"] == ["zinc", "lead"], raster["descriptions"]
    x_origin, _, _, y_origin, _, _ = raster["geotransform"]
    assert x_origin % 40 == 0 and y_origin % 40 == 0, raster["geotransform"]
    for values in raster["values"]:
        assert numpy.count_nonzero(values == -1) > 0, "no cell is masked"


def test_ellipse_and_cutline_equal_shepard_grid():
    output, expected = scratch_path("qgis-cutline.tif"), scratch_path("direct-cutline.tif")
    river = os.path.join(SOURCE_ROOT, "data", "meuse-river.geojson")
    results_of(run_algorithm("shepard:adaptiveidw", {
        "INPUT": POINTS_LAYER, "FIELD": "zinc", "RADIUS1": 600, "RADIUS2": 300, "ANGLE": 30, "MAX_POINTS": 20,
        "CUTLINE": river, "WIDTH": 90, "HEIGHT": 120, "OUTPUT": output}))
    run_tool(GRID_TOOL, "-q", "-zfield", "zinc", "-a", "aidw:radius1=600:radius2=300:angle=30:max_points=20",
             "-cutline", river, "-outsize", "90", "120", POINTS, expected)
    assert_same_raster(output, expected)


def test_summation_and_tolerance_equal_shepard_grid():
    cases = (  # algorithm, its parameters, shepard-grid's -a, the SHEPARD_METHOD both record
        ("shepard:adaptiveidw", {"K": 10, "SUMMATION": 2, "TOLERANCE": 1e-4},
         "aidw:k=10:summation=farfield:tolerance=1e-4", "aidw:k=10:summation=farfield:tolerance=0.0001"),
        ("shepard:idw", {"POWER": 3, "SUMMATION": 1, "TOLERANCE": 0.01},
         "idw:power=3:summation=exact:tolerance=0.01", "idw:power=3:summation=exact:tolerance=0.01"),
        ("shepard:idw", {"SUMMATION": 0, "TOLERANCE": 1e-6}, "idw", "idw"),
    )
    for algorithm, parameters, method, recorded in cases:
        output, expected = scratch_path("qgis-summation.tif"), scratch_path("direct-summation.tif")
        results_of(run_algorithm(algorithm, dict({"INPUT": POINTS_LAYER, "FIELD": "zinc", "WIDTH": 60, "HEIGHT": 80,
                                                  "OUTPUT": output}, **parameters)))
        run_tool(GRID_TOOL, "-q", "-zfield", "zinc", "-a", method, "-outsize", "60", "80", POINTS, expected)
        assert_same_raster(output, expected)
        for path in (output, expected):
            method_item = gdal.Open(path).GetMetadataItem("SHEPARD_METHOD")
            assert method_item == recorded, "{}: {} instead of {}".format(path, method_item, recorded)
            os.remove(path)


class InProcessQgis:
    """QGIS and Processing started in this process, with the provider loaded from the source tree."""

    application = None

    @classmethod
    def start(cls):
        if cls.application is not None:
            return
        from qgis.core import QgsApplication

        cls.application = QgsApplication([], False)
        cls.application.initQgis()
        sys.path.insert(0, os.path.join(QgsApplication.pkgDataPath(), "python", "plugins"))
        sys.path.insert(0, os.path.join(SOURCE_ROOT, "qgis"))
        from processing.core.Processing import Processing
        from shepard.provider import ShepardProvider

        Processing.initialize()
        cls.provider = ShepardProvider()
        QgsApplication.processingRegistry().addProvider(cls.provider)
        os.environ["PATH"] = PATH_WITH_TOOLS


def test_cancel_stops_the_tool_and_leaves_no_output():
    InProcessQgis.start()
    import processing
    from qgis.core import QgsProcessingException, QgsProcessingFeedback

    class CancelOnProgress(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.seen = []
            self.progressChanged.connect(self._progress)

        def _progress(self, percent):
            self.seen.append(percent)
            if percent > 0:
                self.cancel()

    folder = scratch_path("cancelled")
    os.makedirs(folder)
    output = os.path.join(folder, "cancelled.tif")
    feedback = CancelOnProgress()
    try:
        # 16M cells over all 155 points: long enough that the cancel comes while the tool is at work.
        processing.run("shepard:adaptiveidw", {"INPUT": POINTS_LAYER, "FIELD": "zinc", "WIDTH": 4000,
                                               "HEIGHT": 4000, "BACKEND": 1, "OUTPUT": output},
                       feedback=feedback)
    except QgsProcessingException as error:
        assert "Cancelled" in str(error), str(error)
    else:
        raise AssertionError("a cancelled run returned")
    assert feedback.seen and 0 < max(feedback.seen) < 100, feedback.seen
    assert os.listdir(folder) == [], os.listdir(folder)


def test_memory_layer_goes_through_a_geopackage():
    InProcessQgis.start()
    import processing
    from qgis.core import QgsFeatureRequest, QgsVectorLayer

    layer = QgsVectorLayer(POINTS_LAYER, "meuse", "ogr")
    assert layer.isValid()
    memory = layer.materialize(QgsFeatureRequest())
    assert memory.providerType() == "memory" and memory.featureCount() == 155
    output, expected = scratch_path("from-memory.tif"), scratch_path("direct-from-memory.tif")
    result = processing.run("shepard:idw", {"INPUT": memory, "FIELD": "copper", "WIDTH": 64, "HEIGHT": 48,
                                            "OUTPUT": output})
    assert result["OUTPUT"] == output
    run_tool(GRID_TOOL, "-q", "-zfield", "copper", "-outsize", "64", "48", POINTS, expected)
    assert_same_raster(output, expected)


def test_every_parameter_has_help():
    InProcessQgis.start()
    algorithms = {algorithm.id(): algorithm for algorithm in InProcessQgis.provider.algorithms()}
    assert sorted(algorithms) == ["shepard:adaptiveidw", "shepard:crossvalidation", "shepard:idw"], sorted(algorithms)
    for name, algorithm in algorithms.items():
        assert algorithm.shortHelpString().strip(), "{} has no help".format(name)
        silent = [parameter.name() for parameter in algorithm.parameterDefinitions() if not parameter.help().strip()]
        assert not silent, "{}: no help for {}".format(name, ", ".join(silent))


CASES = [
    test_install_command_enables_the_plugin,
    test_missing_tools_are_named,
    test_adaptive_idw_equals_shepard_grid,
    test_idw_equals_shepard_grid,
    test_wrong_field_fails_with_the_tools_message,
    test_cross_validation_equals_shepard_cv,
    test_shepard_folder_setting,
    test_cancel_stops_the_tool_and_leaves_no_output,
    test_memory_layer_goes_through_a_geopackage,
    test_every_parameter_has_help,
    test_neighbourhood_masks_tap_and_fields_equal_shepard_grid,
    test_ellipse_and_cutline_equal_shepard_grid,
    test_summation_and_tolerance_equal_shepard_grid,
]


def main():
    global PATH_WITHOUT_TOOLS, PATH_WITH_TOOLS, QGIS_PROCESS

    _isolate_qgis()
    QGIS_PROCESS = _qgis_process_command()
    if QGIS_PROCESS is None:
        print("1..0 # SKIP QGIS is not installed: qgis_process does not run (apt-get install qgis python3-qgis)")
        return 0
    PATH_WITHOUT_TOOLS = _path_without_tools()
    PATH_WITH_TOOLS = TOOLS_FOLDER + os.pathsep + PATH_WITHOUT_TOOLS
    make_points()

    print("1..{}".format(len(CASES)))
    failed = 0
    for number, case in enumerate(CASES, start=1):
        name = case.__name__[len("test_"):].replace("_", " ")
        try:
            case()
        except Exception:  # noqa: BLE001 (every failure is reported, then the next case runs)
            failed += 1
            print("not ok {} - {}".format(number, name))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
        else:
            print("ok {} - {}".format(number, name))
        sys.stdout.flush()
    if failed == 0:
        shutil.rmtree(SCRATCH)
    else:
        print("# scratch files kept in " + SCRATCH)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

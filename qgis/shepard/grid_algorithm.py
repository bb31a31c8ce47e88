# SPDX-License-Identifier: GPL-3.0-or-later
"""What IDW and Adaptive IDW share: shepard-grid's grid, masks and output around a method's parameters."""

import os

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterExtent,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterString,
    QgsRasterFileWriter,
)

from .algorithm_base import ShepardAlgorithm, parameter_is_set
from .method_parameters import add_neighbourhood_parameters, add_summation_parameters, summation_items

# The creation-options editor of QGIS's GDAL algorithms, which writes NAME=VALUE items separated by "|".
_CREATION_OPTIONS_WIDGET = "processing.algs.gdal.ui.RasterOptionsWidget.RasterOptionsWidgetWrapper"

GRID_HELP = (
    "<p>Grid nodes are cell centres, as with gdal_grid. Without an extent the raster covers the points' bounding "
    "box; without a cell size or width and height it has 256 × 256 cells. The raster gets the layer's CRS, a "
    "nodata value on every band, and its provenance in the metadata (SHEPARD_METHOD gives the parameters as "
    "shepard-grid -a takes them).</p>"
    "<p>The neighbourhood options are gdal_grid's (radius or ellipse, maximum and minimum points, per quadrant, "
    "smoothing, nodata), with exact nearest points. Masks set cells to nodata: farther than a distance from the "
    "nearest point, outside the points' convex hull, or outside the polygons of a cutline layer.</p>"
    "<p>Summation: with all points and no smoothing, the far field sums far points from a tree, every cell within "
    "the tolerance (a share of the field's value range) of the exact value; Exact weighs every pair.</p>"
    "<p>Shepard's command-line tools are installed separately: on PATH, or in the Shepard folder set in Processing "
    "options (Providers &gt; Shepard). The progress bar follows shepard-grid's; Cancel stops it and leaves no "
    "raster.</p>")


def _advanced(parameter):
    parameter.setFlags(parameter.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
    return parameter


class GridAlgorithm(ShepardAlgorithm):
    EXTENT = "EXTENT"
    CELL_SIZE = "CELL_SIZE"
    WIDTH = "WIDTH"
    HEIGHT = "HEIGHT"
    TAP = "TAP"
    MASK_DISTANCE = "MASK_DISTANCE"
    MASK_HULL = "MASK_HULL"
    CUTLINE = "CUTLINE"
    CREATION_OPTIONS = "CREATION_OPTIONS"
    FLOAT64 = "FLOAT64"
    OUTPUT = "OUTPUT"

    def add_method_parameters(self):
        raise NotImplementedError

    def method(self, parameters, context):
        """The -a METHOD string from PARAMETERS."""
        raise NotImplementedError

    def initAlgorithm(self, config=None):  # noqa: N802 (QGIS's interface)
        self.add_input_parameters(several_fields=True)
        self.add_method_parameters()
        add_neighbourhood_parameters(self)
        add_summation_parameters(self)
        self._add_grid_parameters()
        self._add_mask_parameters()
        self._add_output_parameters()

    def _add_grid_parameters(self):
        extent = QgsProcessingParameterExtent(self.EXTENT, self.tr("Extent"), optional=True)
        extent.setHelp(self.tr("The raster's extent, taken into the layer's CRS. Not set: the points' bounding "
                               "box (the layer's extent)."))
        self.addParameter(extent)
        cell_size = QgsProcessingParameterNumber(self.CELL_SIZE, self.tr("Cell size [map units]"),
                                                 QgsProcessingParameterNumber.Double, optional=True,
                                                 minValue=0.0)
        cell_size.setHelp(self.tr("The width and height of a cell (shepard-grid -tr); instead of width and "
                                  "height."))
        self.addParameter(cell_size)
        for name, label, axis in ((self.WIDTH, "Width [cells]", "columns"), (self.HEIGHT, "Height [cells]", "rows")):
            size = QgsProcessingParameterNumber(name, self.tr(label), QgsProcessingParameterNumber.Integer,
                                                optional=True, minValue=1)
            size.setHelp(self.tr("The number of {} (shepard-grid -outsize, with the other one); instead of a cell "
                                 "size. Not set, with no cell size: 256.").format(axis))
            self.addParameter(size)
        tap = QgsProcessingParameterBoolean(self.TAP, self.tr("Align the extent to the cell size (-tap)"),
                                            defaultValue=False)
        tap.setHelp(self.tr("Grow the extent to multiples of the cell size, as gdalwarp -tap does, so that rasters "
                            "of the same cell size line up. Needs a cell size."))
        self.addParameter(_advanced(tap))

    def _add_mask_parameters(self):
        distance = QgsProcessingParameterNumber(self.MASK_DISTANCE, self.tr("Mask: farther than [map units]"),
                                                QgsProcessingParameterNumber.Double, optional=True, minValue=0.0)
        distance.setHelp(self.tr("Nodata where the nearest point is farther than this distance (--mask-distance)."))
        self.addParameter(distance)
        hull = QgsProcessingParameterBoolean(self.MASK_HULL, self.tr("Mask: outside the points' convex hull"),
                                             defaultValue=False)
        hull.setHelp(self.tr("Nodata outside the convex hull of the points (--mask-hull)."))
        self.addParameter(hull)
        cutline = QgsProcessingParameterFeatureSource(self.CUTLINE, self.tr("Mask: outside the polygons of"),
                                                      [QgsProcessing.TypeVectorPolygon], optional=True)
        cutline.setHelp(self.tr("Nodata outside the polygons of this layer (-cutline), reprojected when its CRS "
                                "differs from the points'."))
        self.addParameter(cutline)

    def _add_output_parameters(self):
        options = QgsProcessingParameterString(self.CREATION_OPTIONS, self.tr("Creation options"), optional=True)
        options.setHelp(self.tr("GDAL creation options of the output format, NAME=VALUE separated by |. GeoTIFF is "
                                "written with TILED=YES, COMPRESS=DEFLATE, PREDICTOR=3 and NUM_THREADS=ALL_CPUS unless "
                                "these keys are given."))
        options.setMetadata({"widget_wrapper": {"class": _CREATION_OPTIONS_WIDGET}})
        self.addParameter(_advanced(options))
        float64 = QgsProcessingParameterBoolean(self.FLOAT64, self.tr("Float64 (double precision)"),
                                                defaultValue=False)
        float64.setHelp(self.tr("Compute in double precision and write Float64 instead of Float32."))
        self.addParameter(_advanced(float64))
        self.add_backend_parameter()
        output = QgsProcessingParameterRasterDestination(self.OUTPUT, self.tr("Interpolated"))
        output.setHelp(self.tr("The raster to write; its format follows the file's extension. It appears only when "
                               "complete: a failed or cancelled run leaves nothing."))
        self.addParameter(output)

    def _extent_arguments(self, parameters, context):
        if not parameter_is_set(parameters, self.EXTENT):
            return []
        source = self.parameterAsSource(parameters, self.INPUT, context)
        extent = self.parameterAsExtent(parameters, self.EXTENT, context, source.sourceCrs())
        return ["-txe", repr(extent.xMinimum()), repr(extent.xMaximum()),
                "-tye", repr(extent.yMinimum()), repr(extent.yMaximum())]

    def _size_arguments(self, parameters, context):
        arguments = []
        if parameter_is_set(parameters, self.CELL_SIZE):
            cell_size = repr(self.parameterAsDouble(parameters, self.CELL_SIZE, context))
            arguments += ["-tr", cell_size, cell_size]
        has_width = parameter_is_set(parameters, self.WIDTH)
        if has_width != parameter_is_set(parameters, self.HEIGHT):
            raise QgsProcessingException(self.tr("Give both the width and the height in cells, or neither"))
        if has_width:
            arguments += ["-outsize", str(self.parameterAsInt(parameters, self.WIDTH, context)),
                          str(self.parameterAsInt(parameters, self.HEIGHT, context))]
        if self.parameterAsBoolean(parameters, self.TAP, context):
            arguments.append("-tap")
        return arguments

    def _mask_arguments(self, parameters, context, feedback):
        arguments = []
        if parameter_is_set(parameters, self.MASK_DISTANCE):
            arguments += ["--mask-distance", repr(self.parameterAsDouble(parameters, self.MASK_DISTANCE, context))]
        if self.parameterAsBoolean(parameters, self.MASK_HULL, context):
            arguments.append("--mask-hull")
        if parameter_is_set(parameters, self.CUTLINE):
            layer, path = self.layer_arguments(parameters, self.CUTLINE, context, feedback)
            arguments += ["-cutline", path] + (["-cl", layer[1]] if layer else [])
        return arguments

    def _output_arguments(self, parameters, context, output):
        arguments = []
        driver = QgsRasterFileWriter.driverForExtension(os.path.splitext(output)[1])
        if driver:
            arguments += ["-of", driver]
        options = self.parameterAsString(parameters, self.CREATION_OPTIONS, context)
        for option in (item.strip() for item in options.split("|")):
            if option:
                arguments += ["-co", option]
        if self.parameterAsBoolean(parameters, self.FLOAT64, context):
            arguments += ["-ot", "Float64"]
        return arguments

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        layer, source = self.layer_arguments(parameters, self.INPUT, context, feedback)
        output = self.parameterAsOutputLayer(parameters, self.OUTPUT, context)
        method = ":".join([self.method(parameters, context)] + summation_items(self, parameters, context))
        arguments = layer + ["-zfield", ",".join(self.field_names(parameters, context)), "-a", method]
        arguments += self._extent_arguments(parameters, context)
        arguments += self._size_arguments(parameters, context)
        arguments += self._mask_arguments(parameters, context, feedback)
        arguments += self._output_arguments(parameters, context, output)
        arguments += self.backend_arguments(parameters, context)
        arguments += [source, output]
        self.run_shepard_tool("shepard-grid", arguments, feedback)
        return {self.OUTPUT: output}
